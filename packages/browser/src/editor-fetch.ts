/**
 * A `fetch` that sends `X-Editor-Client` on every request. The typed client sends it on writes
 * only, but GET /pages/{page}/draft finds the caller's draft by (account, client) as well, so a
 * client that edits pages needs it on reads too: `createClient({..., fetch: editorFetch(id)})`.
 */
export function editorFetch(editorClient: string, base: typeof fetch = fetch): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-editor-client', editorClient);
    return base(input, { ...init, headers });
  };
}
