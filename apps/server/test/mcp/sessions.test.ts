// MCP sessions at /mcp, kept in the store: a second process (another server on the same store)
// serves a session the first started, by replaying the client's `initialize` into a transport
// of its own (this fails if an SDK upgrade changes how a transport is initialized); an account
// has a bounded number of live sessions; a session is its account's alone and ends when idle;
// ended on one process, it releases the lock another took, with the lock.released event.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { openEvents } from '../events/event-reader.js';
import { startOtherProcess, startTestServer } from '../platform/harness.js';
import { createProject } from '../v1/helpers.js';
import type { SecondProcess, TestServer } from '../platform/harness.js';

const MOST = 2;
const PROTOCOL = '2025-06-18';

describeStores('MCP sessions over HTTP', (t) => {
  let s: TestServer;
  let other: SecondProcess;
  let bob: { token: string };
  beforeAll(async () => {
    const settings = { mcpSessionsPerAccount: MOST };
    s = await startTestServer(
      { rateLimitPerMinute: 1_000_000, ...settings },
      { store: t.store, clock: t.clock },
    );
    bob = await s.addAccount('bob-mcp@example.org', 'Bob');
    other = await startOtherProcess(t, settings);
  });
  afterAll(async () => {
    await other?.close();
    await s?.close();
  });

  /** One JSON-RPC message to /mcp at `base`; the answer's status, session id and text. */
  async function post(base: string, token: string, message: object, session?: string) {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL } : {}),
      },
      body: JSON.stringify(message),
    });
    return {
      status: res.status,
      session: res.headers.get('mcp-session-id'),
      text: await res.text(),
    };
  }

  const initialize = (base: string, token: string) =>
    post(base, token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities: {},
        clientInfo: { name: 'raw-agent', version: '1.0.0' },
      },
    });
  const listTools = (base: string, token: string, session: string) =>
    post(base, token, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  const end = (base: string, token: string, session: string) =>
    fetch(`${base}/mcp`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${token}`,
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      },
    });

  it('is served by a process that did not start it, rebuilt from the store', async () => {
    const started = await initialize(s.url, s.token);
    expect(started.status).toBe(200);
    const session = started.session!;
    const tools = await listTools(other.url, s.token, session);
    expect(tools.status).toBe(200);
    expect(tools.text).toContain('apply_operations');
    // And back: the first process still serves it.
    expect((await listTools(s.url, s.token, session)).status).toBe(200);
    // Ended on the second, it is gone on the first too.
    expect((await end(other.url, s.token, session)).status).toBe(200);
    expect((await listTools(s.url, s.token, session)).status).toBe(404);
  });

  it('ends on one process, releasing the lock the other took, with lock.released', async () => {
    const { id } = await createProject(s, s.token);
    const session = (await initialize(s.url, s.token)).session!;
    const read = await post(
      s.url,
      s.token,
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'read_page', arguments: { project_id: id, page: 'index.html' } },
      },
      session,
    );
    expect(read.status).toBe(200);
    expect(await s.store.projectLocks.active(id)).toMatchObject({
      kind: 'agent',
      label: 'raw-agent (MCP)',
    });
    const view = openEvents(s.url, s.token, { project: id });
    const first = view.next();
    await view.opened;
    expect((await end(other.url, s.token, session)).status).toBe(200);
    // The events of the read (lock taken, draft opened) may still be on their way first.
    let event = await first;
    for (let skipped = 0; event?.kind !== 'lock.released' && skipped < 2; skipped += 1) {
      event = await view.next();
    }
    expect(event).toMatchObject({ kind: 'lock.released', data: { project_id: id } });
    expect(await s.store.projectLocks.active(id)).toBeNull();
    view.close();
  });

  it('refuses an initialize beyond the account’s live sessions (429), whichever process', async () => {
    const first = await initialize(s.url, bob.token);
    const second = await initialize(other.url, bob.token);
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await initialize(s.url, bob.token);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'too_many_mcp_sessions' });
    // Another account is not held back; an ended session makes room.
    const ada = await initialize(other.url, s.token);
    expect(ada.status).toBe(200);
    expect((await end(s.url, bob.token, first.session!)).status).toBe(200);
    const third = await initialize(other.url, bob.token);
    expect(third.status).toBe(200);
    for (const [token, session] of [
      [bob.token, second.session!],
      [bob.token, third.session!],
      [s.token, ada.session!],
    ] as const) {
      expect((await end(s.url, token, session)).status).toBe(200);
    }
  });

  it('is its account’s alone, needs an initialize to start, and ends when idle', async () => {
    const started = await initialize(s.url, s.token);
    const session = started.session!;
    expect((await listTools(other.url, bob.token, session)).status).toBe(404);
    const stray = await post(s.url, s.token, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(stray.status).toBe(400);
    t.clock.advance(31 * 60 * 1000);
    expect((await listTools(s.url, s.token, session)).status).toBe(404);
    expect((await listTools(other.url, s.token, session)).status).toBe(404);
  });
});
