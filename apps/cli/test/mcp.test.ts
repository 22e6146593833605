// An agent session driven by the MCP SDK's own client against the real service: over stdio
// (`galley mcp` spawned from its sources, GALLEY_SERVER and GALLEY_TOKEN) and over Streamable
// HTTP (`/mcp` on the service, bearer token). Open, lock, a batch of operations, check, save;
// confirming is refused to a token (403); an asset written twice with one request_key.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galleyArgs } from './support/galley.js';
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

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = result.content.map((c) => c.text).join('\n');
  return {
    error: result.isError === true,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

describe('an agent session over MCP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
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

  it('releases the lock when the session ends, and refuses a caller without a token', async () => {
    const project = await createProject(s, 'Agent gone');
    const client = new Client({ name: 'leaving-agent', version: '1.0.0' });
    await client.connect(transports['streamable HTTP']!());
    await call(client, 'read_page', { project_id: project.id, page: 'index.html' });
    const lockUrl = `${s.url}/api/v1/projects/${project.id}/lock`;
    const held = await fetch(lockUrl, { headers: { authorization: `Bearer ${s.token}` } });
    expect(await held.json()).toMatchObject({
      lock: { kind: 'agent', label: 'leaving-agent (MCP)' },
    });
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    const released = await fetch(lockUrl, { headers: { authorization: `Bearer ${s.token}` } });
    expect(await released.json()).toEqual({ lock: null });

    const anonymous = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(401);
  }, 60_000);
});
