// MCP over Streamable HTTP when `galley serve` is several processes: a cluster of two workers
// (one port) and a second `galley serve` on the same database, real processes over loopback, on
// a SQLite file and on PostgreSQL. The SDK's own client keeps one session whichever process
// answers each of its requests; ending the session on one process releases the locks another
// took and renews, and nothing takes them again.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../packages/store/test/stores.js';
import { serveProcess, storeOf } from './support/galley.js';
import type { Serving } from './support/galley.js';
import { createProject, issueToken, officeOf, send } from './support/http.js';
import { call } from './support/mcp.js';

const SLOW = 180_000;
/** How often a session renews its locks here: a few periods pass in a short wait. */
const RENEW_SECONDS = 0.2;

describeStores('MCP sessions on several processes', (t) => {
  let cluster: Serving;
  let single: Serving;
  let token: string;

  beforeAll(async () => {
    const { data, env } = storeOf(t);
    const start = {
      env: { ...env, GALLEY_MCP_RENEW_SECONDS: String(RENEW_SECONDS) },
      startTimeoutMs: SLOW / 2,
    };
    cluster = await serveProcess(data, { ...start, args: ['--workers', '2'] });
    single = await serveProcess(data, { ...start, args: ['--workers', '1'] });
    ({ token } = await issueToken(cluster.url, officeOf(cluster.output()).password));
  }, SLOW);
  afterAll(async () => {
    for (const serving of [cluster, single]) {
      if (serving?.child.exitCode === null) await serving.stop();
    }
  });

  const lockOf = async (projectId: string) => {
    const answer = await send<{ lock: { kind: string; label: string } | null }>(
      single.url,
      'GET',
      `/api/v1/projects/${projectId}/lock`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(answer.status).toBe(200);
    return answer.body.lock;
  };

  function connect(name: string, fetch?: FetchLike) {
    const client = new Client({ name, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${cluster.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      ...(fetch ? { fetch } : {}),
    });
    return { client, transport, connected: client.connect(transport) };
  }

  it(
    'keeps a session of the SDK’s client across the workers, and frees its lock when it ends',
    { timeout: SLOW },
    async () => {
      const projectId = await createProject(cluster.url, token);
      const { client, transport, connected } = connect('worker-agent');
      await connected;
      try {
        for (let round = 0; round < 3; round += 1) {
          const listed = (await call(client, 'list_projects')).json() as {
            projects: Array<{ id: string }>;
          };
          expect(listed.projects.map((p) => p.id)).toContain(projectId);
          const applied = await call(client, 'apply_operations', {
            project_id: projectId,
            page: 'index.html',
            operations: [{ kind: 'swap', target: '#top', html: `Round ${round}` }],
          });
          expect(applied.text).not.toMatch(/Refused/);
        }
        expect(await lockOf(projectId)).toMatchObject({
          kind: 'agent',
          label: 'worker-agent (MCP)',
        });
        expect((await call(client, 'release_lock', { project_id: projectId })).error).toBe(false);
        expect(await lockOf(projectId)).toBeNull();
        const again = await call(client, 'read_page', {
          project_id: projectId,
          page: 'index.html',
        });
        expect(again.text).toMatch(/Round 2/);
        expect(await lockOf(projectId)).toMatchObject({ kind: 'agent' });
        await transport.terminateSession();
      } finally {
        await client.close();
      }
      expect(await lockOf(projectId)).toBeNull();
    },
  );

  it(
    'ends a session on one process while another holds a copy: the lock is not taken again',
    { timeout: SLOW },
    async () => {
      const projectId = await createProject(cluster.url, token);
      // Each POST goes to the other service in turn (the cluster, the single process), so both
      // build a copy of the session and both renew its lock.
      let posts = 0;
      const alternate: FetchLike = (url, init) => {
        const target = new URL(url);
        if (init?.method === 'POST' && posts++ % 2 === 1) {
          target.port = new URL(single.url).port;
        }
        return fetch(target, init);
      };
      const { client, transport, connected } = connect('alternating-agent', alternate);
      await connected;
      try {
        for (let round = 0; round < 2; round += 1) {
          const read = await call(client, 'read_page', {
            project_id: projectId,
            page: 'index.html',
          });
          expect(read.error).toBe(false);
        }
        expect(await lockOf(projectId)).toMatchObject({ label: 'alternating-agent (MCP)' });
        await transport.terminateSession();
      } finally {
        await client.close();
      }
      expect(await lockOf(projectId)).toBeNull();
      // Several renewal periods on, the copy that did not see the end has not taken it again.
      await new Promise((resolve) => setTimeout(resolve, RENEW_SECONDS * 5 * 1000));
      expect(await lockOf(projectId)).toBeNull();
    },
  );
});
