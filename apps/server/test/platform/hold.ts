// Races laid out step by step: a call held at a chosen point while another request runs, so no
// test of a race depends on timing.

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Holds the next call of `target[name]` until `release()`: `reached` settles when the call is
 * made (before it runs). Later calls run as before.
 */
export function holdNext(target: object, name: string) {
  const methods = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const own = Object.prototype.hasOwnProperty.call(target, name);
  const original = methods[name]!;
  const reached = deferred();
  const gate = deferred();
  methods[name] = async (...args: unknown[]) => {
    if (own) methods[name] = original;
    else delete methods[name];
    reached.resolve();
    await gate.promise;
    return original.apply(target, args);
  };
  return { reached: reached.promise, release: gate.resolve };
}
