/**
 * An empty object to key by file path: the inspection's per-file details and inputs, thousands
 * of paths in a large production. Without a prototype, V8 keeps it as a hash table from the
 * start; an object literal grown key by key first goes through a hidden class per key, and
 * `Object.fromEntries` was slower still (about 1 ms for 1,000 paths). And a path named
 * `__proto__` is an own key like any other, not the prototype's setter.
 */
export const pathRecord = <V>(): Record<string, V> => Object.create(null) as Record<string, V>;
