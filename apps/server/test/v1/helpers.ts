// Shared by the v1 tests: a server on loopback over a real SQLite file (the platform harness),
// a small HTTP helper that sends the token and X-Editor-Client, and valid folder ZIPs.
import { writeZip } from '@galley/core';
import type { Problem, v1 } from '@galley/core';
import type { z } from 'zod';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../platform/harness.js';

export type { TestServer };

/** A test server without a practical rate limit (the matrix sends many requests). */
export function startV1Server(): Promise<TestServer> {
  return startTestServer({ rateLimitPerMinute: 1_000_000 });
}

type Out<S extends z.ZodType> = z.output<S>;
export type ProjectBody = Out<typeof v1.CreatedProject>;
export type DraftBody = Out<typeof v1.DraftAnswer>;
export type OperationBody = Out<typeof v1.OperationAnswer>;
export type SavedBody = Out<typeof v1.Saved>;
export type HistoryBody = Out<typeof v1.History>;
export type ConfirmationBody = Out<typeof v1.Confirmation>;
export type ConfirmationsBody = Out<typeof v1.ConfirmationList>;
export type MembersBody = Out<typeof v1.Members>;
export type MemberListBody = Out<typeof v1.MemberList>;
export type LockBody = Out<typeof v1.LockAnswer>;
export type PagesBody = Out<typeof v1.PageList>;
export type ProjectsBody = Out<typeof v1.ProjectList>;
/** A problem with the members the documents name. */
export type ProblemBody = Problem & {
  lock?: { kind: string; label: string; holder: { name: string }; expires_at: string };
  checks?: Record<string, string>;
  violations?: Array<{ check: string; code: string; path: string }>;
  current_revision?: number;
};

export interface Answer<T = ProblemBody> {
  status: number;
  body: T;
  headers: Headers;
  bytes: Uint8Array;
}

export interface CallOptions {
  token?: string | null;
  client?: string | null;
  json?: unknown;
  raw?: { body: string | Uint8Array; contentType?: string };
  form?: FormData;
  headers?: Record<string, string>;
}

/** One caller: a token and an X-Editor-Client, sent with every request. */
export function caller(s: TestServer, token: string | null, client: string | null = 'test-client') {
  return <T = ProblemBody>(method: string, path: string, options: CallOptions = {}) =>
    call<T>(s, method, path, { token, client, ...options });
}

export async function call<T = ProblemBody>(
  s: TestServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.client) headers['x-editor-client'] = options.client;
  let body: string | Uint8Array | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw) {
    if (options.raw.contentType) headers['content-type'] = options.raw.contentType;
    body = options.raw.body;
  } else if (options.form) {
    body = options.form;
  }
  const url = path.startsWith('http') ? path : `${s.url}/api/v1${path}`;
  const res = await fetch(url, {
    method,
    headers,
    ...(body !== undefined ? { body: body as NonNullable<RequestInit['body']> } : {}),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const text = new TextDecoder().decode(bytes);
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    body: (type.includes('json') && text ? JSON.parse(text) : text) as T,
  };
}

const encoder = new TextEncoder();

export function page(title: string, body: string): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="style.css"></head>\n<body>${body}</body></html>\n`;
}

export interface PageEntry {
  file: string;
  title: string;
  public_url: string;
}

/** `project.json` of the web medium with these pages (in this order). */
export function projectJson(title: string, pages: readonly PageEntry[]): string {
  const project = { format: 1, title, media: { id: 'web', version: 1 }, pages };
  return `${JSON.stringify(project, null, 2)}\n`;
}

const homeAndAbout: readonly PageEntry[] = [
  { file: 'index.html', title: 'Home', public_url: '/' },
  { file: 'about.html', title: '', public_url: '/about.html' },
];

/** A valid project folder of the web medium: two pages and a style sheet. */
export function projectFolder(
  title = 'Shop',
  extra: Record<string, string> = {},
): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    'project.json': projectJson(title, homeAndAbout),
    'index.html': page(
      'Home',
      '<h1 id="top">Welcome</h1><p id="intro" class="lead">Hello there</p><ul id="list"><li>One</li></ul><a href="about.html">About</a>',
    ),
    'about.html': page('About us', '<h1 id="about">About</h1>'),
    'style.css': 'body { margin: 0; }\n',
    ...extra,
  };
  return new Map(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)]));
}

export function zipOf(folder: Map<string, Uint8Array>): Uint8Array {
  return writeZip(folder);
}

export function zipForm(zip: Uint8Array, field = 'zip'): FormData {
  const form = new FormData();
  form.set(field, new Blob([zip], { type: 'application/zip' }), 'folder.zip');
  return form;
}

/** Creates a project from `projectFolder()`; answers its id and page ids by file. */
export async function createProject(s: TestServer, token: string, title = 'Shop') {
  const created = await call<ProjectBody>(s, 'POST', '/projects/folder', {
    token,
    client: 'setup',
    form: zipForm(zipOf(projectFolder(title))),
  });
  if (created.status !== 201)
    throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id;
  const pages = await call<PagesBody>(s, 'GET', `/projects/${id}/pages`, { token });
  const pageIds: Record<string, string> = Object.fromEntries(
    pages.body.pages.map((p) => [p.file, p.id]),
  );
  return { id, pageIds, created: created.body };
}

/** A screen session of the account: its cookie (`name=value`) and its CSRF token. */
export async function screenSession(s: TestServer, email: string, password: string) {
  const login = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status}`);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf_token: csrf } = (await login.json()) as { csrf_token: string };
  return { cookie, csrf };
}
