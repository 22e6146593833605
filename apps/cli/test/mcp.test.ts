// An agent session driven by the MCP SDK's own client against the real service: over stdio
// (`galley mcp` spawned from its sources, GALLEY_SERVER and GALLEY_TOKEN) and over Streamable
// HTTP (`/mcp` on the service, bearer token). Open, lock, a batch of operations, check, save;
// confirming is refused to a token (403); an asset written twice with one request_key. The lock
// (kind agent) outlives its 60 s window while the session lives, and is free once it ends.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galley, galleyArgs, oneErrorLine } from './support/galley.js';
import { call } from './support/mcp.js';
import { createProject, startServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const TOOLS = [
  'list_projects',
  'read_page',
  'apply_operations',
  'undo',
  'redo',
  'check_page',
  'save_page',
  'release_lock',
  'read_history',
  'list_assets',
  'read_asset',
  'write_asset',
];

/** How often the sessions renew their locks here (20 s by default): the test need not wait. */
const RENEW_SECONDS = 0.2;

interface Lock {
  kind: string;
  label: string;
  acquired_at: string;
  expires_at: string;
  ttl_seconds: number;
}

/** `read` again every 50 ms until it answers something (at most 10 s). */
async function waitFor<T>(read: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await read();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('it never came');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('an agent session over MCP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ mcpRenewSeconds: RENEW_SECONDS });
  });
  afterAll(() => s?.close());

  const transports: Record<string, () => Transport> = {
    stdio: () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [...galleyArgs, 'mcp', '--label', 'Test agent'],
        env: {
          ...(process.env as Record<string, string>),
          GALLEY_SERVER: s.url,
          GALLEY_TOKEN: s.token,
          GALLEY_MCP_RENEW_SECONDS: String(RENEW_SECONDS),
        },
        stderr: 'pipe',
      }),
    'streamable HTTP': () =>
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${s.token}` } },
      }),
  };

  for (const [name, transport] of Object.entries(transports)) {
    it(`edits, checks and saves a page, and writes an asset (${name})`, async () => {
      const project = await createProject(s, `Agent ${name}`);
      const client = new Client({ name: 'galley-test-agent', version: '1.0.0' });
      await client.connect(transport());
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        for (const tool of TOOLS) expect(names).toContain(tool);
        const apply = (await client.listTools()).tools.find((t) => t.name === 'apply_operations')!;
        expect(Object.keys(apply.inputSchema.properties ?? {})).toEqual([
          'project_id',
          'page',
          'operations',
        ]);

        // Every argument of the asset tools is said in words.
        for (const tool of ['list_assets', 'read_asset', 'write_asset']) {
          const schema = (await client.listTools()).tools.find((t) => t.name === tool)!.inputSchema;
          for (const [argument, property] of Object.entries(schema.properties ?? {})) {
            expect([tool, argument, (property as { description?: string }).description]).toEqual([
              tool,
              argument,
              expect.any(String),
            ]);
          }
        }

        const listed = (await call(client, 'list_projects')).json() as {
          projects: Array<{ id: string }>;
        };
        expect(listed.projects.map((p) => p.id)).toContain(project.id);
        const opened = (await call(client, 'open_project', { project_id: project.id })).json();
        expect(opened).toMatchObject({ project: { id: project.id }, lock: null });

        const read = await call(client, 'read_page', {
          project_id: project.id,
          page: 'index.html',
        });
        expect(read.error).toBe(false);
        const outline = read.json() as { outline: Array<{ id: string | null; text: string }> };
        expect(outline.outline).toContainEqual(
          expect.objectContaining({ id: 'top', text: 'Shop' }),
        );
        // Reading took the lock, as kind agent with the agent's label.
        const lock = (await call(client, 'open_project', { project_id: project.id })).json();
        expect(lock).toMatchObject({ lock: { kind: 'agent' } });

        const batch = await call(client, 'apply_operations', {
          project_id: project.id,
          page: 'index.html',
          operations: [
            { kind: 'swap', target: '#top', html: 'Shop <b>now</b>' },
            { kind: 'insert', parent: '#top', html: '<span id="added">!</span>' },
            { kind: 'remove', target: '#nowhere' },
            { kind: 'remove', target: '#added' },
          ],
        });
        expect(batch.error).toBe(true);
        expect(batch.text).toMatch(/Operation 2 was refused/);
        expect(batch.text).toMatch(/Operations 0 to 1 were applied/);
        const element = await call(client, 'read_page', {
          project_id: project.id,
          page: 'index.html',
          element: '#top',
        });
        expect((element.json() as { html: string }).html).toBe(
          '<h1 id="top">Shop <b>now</b><span id="added">!</span></h1>',
        );
        expect(
          (await call(client, 'undo', { project_id: project.id, page: 'index.html' })).error,
        ).toBe(false);
        expect(
          (await call(client, 'redo', { project_id: project.id, page: 'index.html' })).error,
        ).toBe(false);

        const check = (
          await call(client, 'check_page', { project_id: project.id, page: 'index.html' })
        ).json();
        expect(check).toMatchObject({ blocks_save: false });
        const saved = await call(client, 'save_page', {
          project_id: project.id,
          page: 'index.html',
        });
        expect(saved.error).toBe(false);
        expect(saved.json()).toMatchObject({ revision: 2 });
        const history = (await call(client, 'read_history', { project_id: project.id })).json() as {
          entries: Array<{ kind: string }>;
        };
        expect(history.entries[0]).toMatchObject({ kind: 'save' });

        // A batch says which operations it applied before the refusal, if any.
        const onePassed = await call(client, 'apply_operations', {
          project_id: project.id,
          page: 'index.html',
          operations: [
            { kind: 'swap', target: '#top', html: 'Later' },
            { kind: 'remove', target: '#nowhere' },
          ],
        });
        expect(onePassed.text).toMatch(/^Operation 0 was applied \(.*\)\. Operation 1 was refused/);
        const nonePassed = await call(client, 'apply_operations', {
          project_id: project.id,
          page: 'index.html',
          operations: [{ kind: 'remove', target: '#nowhere' }],
        });
        expect(nonePassed.text).toMatch(/^No operation was applied\. Operation 0 was refused/);

        const confirm = await call(client, 'confirm_version', { project_id: project.id });
        expect(confirm.error).toBe(true);
        expect(confirm.text).toMatch(/Refused \(403/);

        const key = randomUUID();
        const body = {
          request_key: key,
          kind: 'data',
          title: 'Palette',
          files: [
            {
              path: 'palette.json',
              json: { colors: [{ name: 'Ink', value: '#112233' }] },
              schema: 'svc://schemas/palette/1',
            },
          ],
        };
        const first = await call(client, 'write_asset', body);
        expect(first.text).not.toMatch(/Refused|error/i);
        const again = await call(client, 'write_asset', body);
        const asset = (first.json() as { asset: { id: string } }).asset;
        expect((again.json() as { asset: { id: string } }).asset.id).toBe(asset.id);
        const readAsset = (await call(client, 'read_asset', { asset_id: asset.id })).json();
        expect(readAsset).toMatchObject({ asset: { id: asset.id, revision: { number: 1 } } });

        expect((await call(client, 'release_lock', { project_id: project.id })).error).toBe(false);
        const after = (await call(client, 'open_project', { project_id: project.id })).json();
        expect(after).toMatchObject({ lock: null });
      } finally {
        await client.close();
      }
    }, 60_000);
  }

  for (const [name, transport] of Object.entries(transports)) {
    it(`renews its agent lock while it works, and releases it when the session ends (${name})`, async () => {
      const project = await createProject(s, `Agent renewing ${name}`);
      const lockUrl = `${s.url}/api/v1/projects/${project.id}/lock`;
      const lockOf = async () => {
        const res = await fetch(lockUrl, { headers: { authorization: `Bearer ${s.token}` } });
        expect(res.status).toBe(200);
        return ((await res.json()) as { lock: Lock | null }).lock;
      };
      /** Another client of the same account asking for the lock: 423 while the agent holds it. */
      const otherAsks = () =>
        fetch(lockUrl, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${s.token}`,
            'content-type': 'application/json',
            'x-editor-client': `someone-else-${name.replace(/\W+/g, '-')}`,
          },
          body: JSON.stringify({ kind: 'agent', label: 'Someone else' }),
        });
      const client = new Client({ name: 'renewing-agent', version: '1.0.0' });
      await client.connect(transport());
      let open = true;
      try {
        const read = await call(client, 'read_page', {
          project_id: project.id,
          page: 'index.html',
        });
        expect(read.error).toBe(false);
        const taken = (await lockOf())!;
        expect(taken).toMatchObject({ kind: 'agent', ttl_seconds: 60 });
        // The service's clock stands still unless moved: 50 s on, the lock has 10 s left, and
        // the session (renewing every RENEW_SECONDS) extends it to 60 s from then.
        s.clock.advance(50_000);
        const renewed = await waitFor(async () => {
          const lock = await lockOf();
          return lock && lock.expires_at > taken.expires_at ? lock : null;
        });
        // Past the first 60 s: still the same lock, held since it was taken, refusing others.
        s.clock.advance(20_000);
        const held = (await lockOf())!;
        expect(held).toMatchObject({
          kind: 'agent',
          label: taken.label,
          acquired_at: taken.acquired_at,
        });
        expect(held.expires_at >= renewed.expires_at).toBe(true);
        expect((await otherAsks()).status).toBe(423);
        const applied = await call(client, 'apply_operations', {
          project_id: project.id,
          page: 'index.html',
          operations: [{ kind: 'swap', target: '#top', html: 'Still mine' }],
        });
        expect(applied.error).toBe(false);

        // The session ends: over HTTP its client deletes it; over stdio stdin closes and
        // `galley mcp` ends (the SDK's close waits for the process to exit).
        if (client.transport instanceof StreamableHTTPClientTransport) {
          await client.transport.terminateSession();
        }
        await client.close();
        open = false;
        expect(await lockOf()).toBeNull();
        const taker = await otherAsks();
        expect(taker.status).toBe(200);
        expect(await taker.json()).toMatchObject({ lock: { label: 'Someone else' } });
        // Nothing renews the agent's lock any more: the other client's holds past its window.
        s.clock.advance(30_000);
        expect(await lockOf()).toMatchObject({ label: 'Someone else' });
      } finally {
        if (open) await client.close();
      }
    }, 60_000);
  }

  it('refuses an unusable GALLEY_MCP_RENEW_SECONDS before it serves (galley mcp)', async () => {
    const run = await galley(['mcp'], {
      env: { GALLEY_SERVER: s.url, GALLEY_TOKEN: s.token, GALLEY_MCP_RENEW_SECONDS: '60' },
    });
    expect(run.code).toBe(2);
    expect(oneErrorLine(run)).toBe(true);
    expect(run.stderr).toMatch(/GALLEY_MCP_RENEW_SECONDS 60/);
  }, 60_000);

  it('refuses a caller without a token', async () => {
    const anonymous = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(401);
  });
});
