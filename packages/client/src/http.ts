import type { Problem } from '@galley/core';

/** A refusal from the service: the HTTP status and its RFC 9457 problem details. */
export class GalleyApiError extends Error {
  readonly status: number;
  readonly problem: Problem;
  constructor(status: number, problem: Problem) {
    super(`${status} ${problem.code}: ${problem.detail}`);
    this.name = 'GalleyApiError';
    this.status = status;
    this.problem = problem;
  }
}

export interface ClientOptions {
  /** Origin of the editing interface, e.g. `http://localhost:8080` (`/api/v1` is added). */
  baseUrl: string;
  /** Origin of the asset interface; defaults to `baseUrl` (one process serves both). */
  assetBaseUrl?: string;
  /** API token (`glly_…`); leave out in a browser page that uses the screen's session cookie. */
  token?: string;
  /** The screen session's CSRF token, sent as `X-CSRF-Token` on writes. */
  csrfToken?: string;
  /**
   * Sent as `X-Editor-Client` on every request: writes need it, and a draft is found by
   * (account, client), so reading one does too. One per run (a UUID is a good choice).
   */
  editorClient?: string;
  fetch?: typeof fetch;
}

export interface Binary {
  bytes: Uint8Array;
  headers: Headers;
}

type Body = { json: unknown } | { form: FormData } | { raw: Uint8Array; contentType: string };

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: Body;
  headers?: Record<string, string>;
  /** Aborts the request, or the reading of its answer. */
  signal?: AbortSignal;
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function transport(options: ClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function send(call: Call): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.editorClient) headers['x-editor-client'] = options.editorClient;
    if (options.csrfToken && writes.has(call.method)) headers['x-csrf-token'] = options.csrfToken;
    let body: RequestInit['body'];
    if (call.body && 'json' in call.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body.json);
    } else if (call.body && 'form' in call.body) {
      body = call.body.form;
    } else if (call.body) {
      headers['content-type'] = call.body.contentType;
      body = call.body.raw as unknown as RequestInit['body'];
    }
    const response = await doFetch(call.url, {
      method: call.method,
      headers,
      body,
      credentials: 'same-origin',
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (!response.ok) throw await toError(response);
    return response;
  }

  return {
    async json<T>(call: Call): Promise<T> {
      const response = await send(call);
      if (response.status === 204) return undefined as T;
      return (await response.json()) as T;
    },
    async binary(call: Call): Promise<Binary> {
      const response = await send(call);
      return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
    },
    /** The answer itself, its body unread (a stream); a refusal throws as the others do. */
    response: send,
  };
}

async function toError(response: Response): Promise<GalleyApiError> {
  const text = await response.text();
  let problem: Problem;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = {
      type: 'about:blank',
      title: response.statusText,
      status: response.status,
      detail: text,
      code: 'http_error',
    };
  }
  return new GalleyApiError(response.status, problem);
}

/** Builds a URL with a query string, leaving out undefined values. */
export function withQuery(url: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}
