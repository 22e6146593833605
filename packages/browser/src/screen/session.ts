import type { Outcome } from '../result.js';
import { fail, succeed } from '../result.js';
import type { Problem } from '@galley/core';
import { randomUuid } from '../uuid.js';

/** The session's CSRF token, which the server puts in a meta element of every signed-in page. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

/** Whether this page was served to a signed-in person (it then carries the CSRF token). */
export function signedIn(): boolean {
  return csrfToken() !== '';
}

/** The login page, bringing the person back to this page (path and query) afterwards. */
export function loginAgainUrl(): string {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

let leaving = false;

/** The session has ended (expired, or logged out elsewhere): off to log in, then back here. */
export function sessionEnded(): void {
  if (leaving) return;
  leaving = true;
  location.assign(loginAgainUrl());
}

/**
 * `fetch` for every request of a signed-in page: a 401 there means the session has ended, never
 * that an API token is missing, so the person is sent to log in again and brought back here.
 */
export async function screenFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status === 401 && signedIn()) sessionEnded();
  return response;
}

const EDITOR_CLIENT_KEY = 'galley.editor-client';

/**
 * This tab's `X-Editor-Client`: one per tab, kept across reloads (sessionStorage), so a reload
 * picks up its own lock and draft while another tab or browser is another client.
 */
export function editorClientId(): string {
  const kept = keptEditorClient();
  if (kept) return kept;
  const made = `screen-${randomUuid()}`;
  sessionStorage.setItem(EDITOR_CLIENT_KEY, made);
  return made;
}

function keptEditorClient(): string | null {
  const kept = sessionStorage.getItem(EDITOR_CLIENT_KEY);
  return kept && /^[A-Za-z0-9._:-]{1,64}$/.test(kept) ? kept : null;
}

/**
 * How long a page waits for another tab to say that it is using the same editor client. Tabs of
 * one browser answer within a few milliseconds; a reloaded tab's old page is gone and never does.
 */
const ANSWER_WITHIN_MS = 250;

type EditorClientMessage = { readonly asking: string } | { readonly using: string };

let claimed: Promise<void> | undefined;

/**
 * A duplicated tab starts with a copy of its original's sessionStorage, editor client included.
 * This asks the other tabs of the browser whether one of them uses the kept client; if one does,
 * this tab drops it and becomes a client of its own (read-only while the original holds the
 * lock). Then it answers the same question for its own client, for as long as the page is open.
 * Called by every signed-in page (once); the editor waits for it before its first request.
 */
export function claimEditorClient(): Promise<void> {
  return (claimed ??= claim(new BroadcastChannel('galley.editor-clients')));
}

async function claim(channel: BroadcastChannel): Promise<void> {
  const kept = keptEditorClient();
  const inUse =
    kept !== null &&
    (await new Promise<boolean>((resolve) => {
      const heard = (event: MessageEvent<EditorClientMessage>) => {
        if ('using' in event.data && event.data.using === kept) done(true);
      };
      const done = (answer: boolean) => {
        clearTimeout(timer);
        channel.removeEventListener('message', heard);
        resolve(answer);
      };
      const timer = setTimeout(() => done(false), ANSWER_WITHIN_MS);
      channel.addEventListener('message', heard);
      channel.postMessage({ asking: kept } satisfies EditorClientMessage);
    }));
  if (inUse) sessionStorage.removeItem(EDITOR_CLIENT_KEY);
  channel.addEventListener('message', (event: MessageEvent<EditorClientMessage>) => {
    const mine = keptEditorClient();
    if (mine && 'asking' in event.data && event.data.asking === mine)
      channel.postMessage({ using: mine } satisfies EditorClientMessage);
  });
}

/** A JSON request to the screen's own endpoints (`/auth/...`), with the CSRF header on writes. */
export async function authRequest(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<Outcome<unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await screenFetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    return fail({ kind: 'network', message: error instanceof Error ? error.message : 'offline' });
  }
  const parsed = parseJson(await response.text());
  if (response.ok) return succeed(parsed);
  const problem = (parsed ?? {}) as Partial<Problem>;
  return fail({
    kind: 'http',
    status: response.status,
    problem: {
      type: problem.type ?? 'about:blank',
      title: problem.title ?? response.statusText,
      status: response.status,
      detail: problem.detail ?? '',
      code: problem.code ?? 'http_error',
    },
  });
}

function parseJson(body: string): unknown {
  try {
    return body ? (JSON.parse(body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
