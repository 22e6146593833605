// A real Galley server on loopback for the service commands (the platform test harness), with
// what the tests need over HTTP: a project, a person's screen session, and confirmed versions.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeZip } from '@galley/core';
import type { v1 } from '@galley/core';
import { startTestServer } from '../../../server/test/platform/harness.js';
import type { TestServer } from '../../../server/test/platform/harness.js';
import type { ServerConfig } from '@galley/server';
import { folderOf, validProject } from './galley.js';

export type { TestServer };

export async function startServer(settings: Partial<ServerConfig> = {}): Promise<TestServer> {
  return startTestServer({ rateLimitPerMinute: 1_000_000, ...settings });
}

async function answer<T>(res: Response, expected: number, what: string): Promise<T> {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const setup = { 'x-editor-client': 'test-setup' };

/** Creates a project from a valid folder with the harness account's token. */
export async function createProject(s: TestServer, title = 'Shop'): Promise<v1.Project> {
  const files = validProject();
  const project = JSON.parse(files['project.json'] as string) as { title: string };
  project.title = title;
  const form = new FormData();
  const zip = writeZip(folderOf({ ...files, 'project.json': JSON.stringify(project) }));
  form.set('zip', new Blob([zip], { type: 'application/zip' }), 'folder.zip');
  const res = await fetch(`${s.url}/api/v1/projects/folder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, ...setup },
    body: form,
  });
  return answer<v1.Project>(res, 201, 'create project');
}

export async function renameProject(s: TestServer, id: string, title: string): Promise<void> {
  const res = await fetch(`${s.url}/api/v1/projects/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', ...setup },
    body: JSON.stringify({ title }),
  });
  await answer(res, 200, 'rename');
}

/** A person on the editing screen: only such a session may confirm (a token gets 403). */
export interface Screen {
  confirm(projectId: string, note?: string): Promise<v1.Confirmation>;
}

export async function screenSession(s: TestServer): Promise<Screen> {
  const login = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: s.account.email, password: s.password }),
  });
  const { csrf_token } = await answer<{ csrf_token: string }>(login, 200, 'login');
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  return {
    async confirm(projectId, note) {
      const res = await fetch(`${s.url}/api/v1/projects/${projectId}/confirmations`, {
        method: 'POST',
        headers: {
          cookie,
          'x-csrf-token': csrf_token,
          'content-type': 'application/json',
          'x-editor-client': 'screen-test',
        },
        body: JSON.stringify(note === undefined ? {} : { note }),
      });
      return answer<v1.Confirmation>(res, 201, 'confirm');
    },
  };
}

/** A stand-in for the service on loopback, answering every request with `handle`. */
export async function fakeService(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
