// Plain HTTP for the process tests: each request on a connection of its own (no keep-alive), so
// a cluster's primary hands each to the next worker in turn, as it does separate clients.
import { request } from 'node:http';
import { writeZip } from '@galley/core';
import { folderOf, validProject } from './galley.js';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface SendOptions {
  token?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

const TIMEOUT_MS = 30_000;

/** Sends one request on a new connection; a JSON answer is parsed into `body`. */
export function send<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Reply<T>> {
  const payload = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(method !== 'GET' ? { 'x-editor-client': 'process-test' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = {};
        try {
          body = text ? JSON.parse(text) : {};
        } catch {
          body = {};
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
      });
    });
    req.on('error', reject);
    // A connection that a dying process took with it is never answered: give up on it.
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    req.end(payload);
  });
}

/** The office's credentials as the first start printed them. */
export function officeOf(output: string): { password: string; token: string } {
  const password = /password: +(\S+)/.exec(output)?.[1];
  const token = /API token: +(glly_\S+)/.exec(output)?.[1];
  if (!password || !token) throw new Error(`no office credentials in: ${output}`);
  return { password, token };
}

/** A new API token of the office account, issued through a screen session; and its id. */
export async function issueToken(
  base: string,
  password: string,
): Promise<{ token: string; id: string; revoke: (on: string) => Promise<number> }> {
  const login = await send<{ csrf_token: string }>(base, 'POST', '/auth/login', {
    json: { email: 'office@galley.local', password },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const session = { cookie, 'x-csrf-token': login.body.csrf_token };
  const issued = await send<{ token: string; id: string }>(base, 'POST', '/auth/tokens', {
    json: {},
    headers: session,
  });
  if (issued.status !== 201) throw new Error(`token: ${issued.status} ${issued.text}`);
  const { token, id } = issued.body;
  const revoke = async (on: string) =>
    (await send(on, 'DELETE', `/auth/tokens/${id}`, { headers: session })).status;
  return { token, id, revoke };
}

/** Creates a project of a valid folder through `base`; answers its id. */
export async function createProject(base: string, token: string): Promise<string> {
  const form = new FormData();
  form.set('zip', new Blob([writeZip(folderOf(validProject()))]), 'folder.zip');
  const created = await fetch(`${base}/api/v1/projects/folder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-editor-client': 'process-test' },
    body: form,
  });
  if (created.status !== 201) throw new Error(`create project: ${created.status}`);
  return ((await created.json()) as { id: string }).id;
}
