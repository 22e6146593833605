import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { createClient, GalleyApiError } from '@galley/client';
import type { GalleyClient } from '@galley/client';
import type { CliIo } from '../io.js';
import { CommandFailure, InputError, notEmpty } from './exit.js';
import type { FailureCode } from './exit.js';
import { wholeNumberOption } from './number-option.js';

export interface RemoteOptions {
  server?: string;
  token?: string;
  timeout?: number;
}

/** The default of `--timeout`: seconds a request may go without any progress. */
export const defaultTimeoutSeconds = 60;
const maxTimeoutSeconds = 3600;

/**
 * A project id as the service makes them: `prj_`, then letters, digits, `_` and `-` only, so
 * it names one project in a URL and stays one plain name inside a file name (no `/`, no `..`).
 */
export const projectIdPattern = /^prj_[A-Za-z0-9_-]+$/;

/**
 * `<project-id>` of `pull`, `push` and `watch`: anything but a project id is refused here
 * (exit 2), never sent to the service to come back as a 404.
 */
export function projectIdOf(value: string): string {
  notEmpty(value, 'the project id', 'give the project, prj_…');
  if (!projectIdPattern.test(value))
    throw new InputError('invalid_option', `${value} is not a project id (prj_…)`);
  return value;
}

/** `--server`, `--token` (each with its environment variable as the fallback) and `--timeout`. */
export function withRemoteOptions(command: Command): Command {
  return command
    .option('--server <url>', 'the Galley service, e.g. https://galley.example.org (GALLEY_SERVER)')
    .option('--token <token>', 'an API token, glly_… (GALLEY_TOKEN; prefer it: argv is visible)')
    .option(
      '--timeout <seconds>',
      `give up on a request that makes no progress for this long (at most ${maxTimeoutSeconds})`,
      wholeNumberOption(1, maxTimeoutSeconds),
      defaultTimeoutSeconds,
    );
}

export interface Remote {
  readonly client: GalleyClient;
  /** The service's origin: the only one the token is sent to. */
  readonly server: string;
  /** The HTTP status of an answer the client returned, found by its headers. */
  statusOf(headers: Headers): number | undefined;
  /** The seconds the last answer asked to wait before trying again (`Retry-After`), if any. */
  retryAfter(): number | undefined;
}

/** A request that made no progress (no answer, no bytes up or down) for `seconds`. */
export class RequestTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`no progress for ${seconds} s`);
    this.name = 'RequestTimeout';
  }
}

/** Bytes of an upload handed to fetch at a time: each one handed over counts as progress. */
const uploadSlice = 64 * 1024;

/**
 * A FormData body as a stream that fetch pulls slice by slice as it sends, so a slow but moving
 * upload is not mistaken for a service that does not answer.
 */
async function pacedForm(form: FormData, progress: () => void) {
  const encoded = new Response(form);
  const type = encoded.headers.get('content-type') ?? 'multipart/form-data';
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        progress();
        if (at >= bytes.length) return controller.close();
        const end = Math.min(at + uploadSlice, bytes.length);
        controller.enqueue(bytes.subarray(at, end));
        at = end;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, type };
}

/**
 * fetch with a timeout that counts time without progress: it starts again whenever a slice of
 * the upload is sent, the answer's headers arrive, or bytes of its body do. `signal` (a stop
 * requested by the user) aborts as well.
 */
function patientFetch(
  seconds: number,
  signal: AbortSignal | undefined,
  noteAnswer: (answer: Response) => void,
): typeof fetch {
  return async (input, init = {}) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const onStop = () => controller.abort(signal?.reason);
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onStop);
    };
    const progress = () => {
      clearTimeout(timer);
      // Unreferenced: a stray timer never keeps the process alive; an open request does.
      timer = setTimeout(() => controller.abort(new RequestTimeout(seconds)), seconds * 1000);
      timer.unref();
    };
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', onStop, { once: true });
    progress();
    try {
      let request: RequestInit = { ...init, signal: controller.signal };
      if (init.body instanceof FormData) {
        const paced = await pacedForm(init.body, progress);
        const headers = new Headers(init.headers);
        headers.set('content-type', paced.type);
        request = { ...request, headers, body: paced.stream, duplex: 'half' };
      }
      const response = await fetch(input, request);
      progress();
      const body =
        response.body?.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, out) {
              progress();
              out.enqueue(chunk);
            },
            flush: finish,
          }),
        ) ?? null;
      if (body === null) finish();
      const answer = new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      noteAnswer(answer);
      return answer;
    } catch (error) {
      finish();
      throw error;
    }
  };
}

/** `--server` or `--token` given as an empty string: the option wins, so it is a mistake. */
function given(option: string, value: string | undefined, variable: string): string | undefined {
  if (value === undefined) return undefined;
  return notEmpty(value, option, `give a value, or leave ${option} out to use ${variable}`);
}

/**
 * The service's address (`--server`, else GALLEY_SERVER, named `source`): an http(s) URL of
 * the service itself, maybe below a path (behind a proxy, as `serve --base-url` allows), but
 * not of an interface (`/api/v1` is added to it), and without credentials (the token is the
 * one credential sent), a query or a fragment.
 */
function serverUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError('invalid_option', `${source} ${value} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError('invalid_option', `${source} ${value} is not an http(s) URL`);
  if (url.username !== '' || url.password !== '')
    throw new InputError(
      'invalid_option',
      `${source} may not carry credentials (user:password@); the token is sent instead (GALLEY_TOKEN or --token)`,
    );
  if (url.search !== '' || url.hash !== '')
    throw new InputError(
      'invalid_option',
      `${source} ${value} may not carry a query or a fragment`,
    );
  if (/(^|\/)api(\/|$)/.test(url.pathname))
    throw new InputError(
      'invalid_option',
      `${source} ${value} names an interface of the service; give the service's own address (${url.origin}), the CLI adds /api/v1`,
    );
  return url;
}

/** Seconds of a `Retry-After` header (a number of seconds, or an HTTP date), if it has any. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^[0-9]+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * A client for one run. Its X-Editor-Client is a new UUID per run (spec rule 1), so the service
 * tells this run apart from the screen and from other runs; `signal` aborts requests in flight.
 * A request with no progress for `--timeout` seconds fails (RequestTimeout).
 */
export function connect(opts: RemoteOptions, env: CliIo['env'], signal?: AbortSignal): Remote {
  const server = given('--server', opts.server, 'GALLEY_SERVER') ?? env.GALLEY_SERVER;
  const token = given('--token', opts.token, 'GALLEY_TOKEN') ?? env.GALLEY_TOKEN;
  if (!server)
    throw new InputError('no_server', 'no service given: pass --server URL or set GALLEY_SERVER');
  const url = serverUrl(server, opts.server === undefined ? 'GALLEY_SERVER' : '--server');
  if (!token)
    throw new InputError('no_token', 'no API token given: set GALLEY_TOKEN or pass --token');
  // A header carries visible ASCII only; fetch would refuse anything else as if the service
  // could not be reached. The token is not echoed: it is a secret.
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new InputError(
      'no_token',
      'the token is unusable: it holds characters an HTTP header cannot carry (control characters, spaces or non-ASCII)',
    );
  const statuses = new WeakMap<Headers, number>();
  let retryAfter: number | undefined;
  const patient = patientFetch(opts.timeout ?? defaultTimeoutSeconds, signal, (answer) => {
    statuses.set(answer.headers, answer.status);
    retryAfter = retryAfterSeconds(answer.headers.get('retry-after'));
  });
  const client = createClient({
    baseUrl: url.origin + url.pathname.replace(/\/$/, ''),
    token,
    editorClient: randomUUID(),
    fetch: (input, init) => {
      retryAfter = undefined; // a request that gets no answer leaves none
      return patient(input, init);
    },
  });
  return {
    client,
    server: url.origin,
    statusOf: (headers) => statuses.get(headers),
    retryAfter: () => retryAfter,
  };
}

/**
 * `url` (absolute, or relative to the service) if it is on the service's own origin; else a
 * CommandFailure: the token is never sent anywhere else.
 */
export function ownUrl(remote: Remote, url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, remote.server);
  } catch {
    throw new CommandFailure('foreign_url', `${what} is offered at ${url}, which is not a URL`);
  }
  if (parsed.origin !== remote.server)
    throw new CommandFailure(
      'foreign_url',
      `${what} is offered at ${url}, outside ${remote.server}; the token is not sent there`,
    );
  return parsed.href;
}

/** The body of a refusal that the documents give fields to: a 422's report, a 423's lock. */
interface RefusalBody {
  checks?: Record<string, string>;
  violations?: unknown[];
  lock?: { holder?: { name?: string }; label?: string; expires_at?: string };
}

/** Longest piece of the service's own text an error line quotes. */
const QUOTED_MAX = 200;

/**
 * Text the service sent, fit for the one `galley:` line an error is: white space and control
 * characters as single spaces, cut at QUOTED_MAX characters. A proxy's HTML error page or a
 * detail with line breaks would otherwise spill over several lines.
 */
function quoted(text: unknown): string {
  const said = typeof text === 'string' ? text : JSON.stringify(text ?? '');
  // eslint-disable-next-line no-control-regex
  const line = said.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return line.length > QUOTED_MAX ? `${line.slice(0, QUOTED_MAX)}…` : line;
}

/** Why the service refused, in a sentence a person can act on. */
function refusalText(error: GalleyApiError, what: string, retryAfter: number | undefined): string {
  const { status } = error;
  const problem = {
    code: quoted(error.problem.code ?? 'error'),
    detail: quoted(error.problem.detail ?? error.problem.title ?? 'no detail given'),
  };
  const body = error.problem as typeof error.problem & RefusalBody;
  if (status === 401)
    return `the service refused the token (401): it is missing, expired or revoked`;
  if (status === 404) return `${what} was not found, or this account may not open it (404)`;
  if (status === 403) return `not allowed (403 ${problem.code}): ${problem.detail}`;
  if (status === 423 && body.lock) {
    const who = quoted(body.lock.holder?.name ?? 'another client');
    const label = body.lock.label ? ` (${quoted(body.lock.label)})` : '';
    return `${what} is being edited by ${who}${label} until ${quoted(body.lock.expires_at ?? 'the lock expires')}; try again later (423)`;
  }
  if (status === 429)
    return `too many requests (429); wait ${retryAfter === undefined ? 'a minute' : `${retryAfter} s`} and try again`;
  return `${status} ${problem.code}: ${problem.detail}`;
}

/** Refusals that asking again will not change: the token, the role, the project. */
const failureCodes: Record<number, FailureCode> = {
  401: 'not_allowed',
  403: 'not_allowed',
  404: 'not_found',
};

/** Any failure of a request as a typed CommandFailure; other errors pass through. */
export function requestFailure(error: unknown, remote: Remote, what: string): unknown {
  if (error instanceof RequestTimeout)
    return new CommandFailure(
      'timed_out',
      `no answer from ${remote.server} for ${error.seconds} s (${what}); gave up (see --timeout)`,
    );
  if (error instanceof GalleyApiError)
    return new CommandFailure(
      failureCodes[error.status] ?? 'refused',
      refusalText(error, what, remote.retryAfter()),
      { cause: error },
    );
  // The client reads an answer's body as JSON: a proxy's page or a cut answer is not.
  if (error instanceof SyntaxError)
    return new CommandFailure(
      'bad_answer',
      `the service sent an answer that is not JSON, for ${what} (${quoted(error.message)})`,
    );
  // fetch reports a network failure (refused, reset, DNS) as a TypeError with the reason as cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (error instanceof TypeError && cause !== undefined) {
    const reason =
      typeof cause.code === 'string'
        ? cause.code
        : typeof cause.message === 'string'
          ? cause.message
          : error.message;
    return new CommandFailure('unreachable', `cannot reach ${remote.server}: ${reason}`);
  }
  return error;
}

/** Runs one request, turning its failure into a typed CommandFailure. */
export async function request<T>(remote: Remote, what: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw requestFailure(error, remote, what);
  }
}

/** A schema of the interface (`v1.ConfirmationList`, `v1.CreatedProject`): its `safeParse`. */
export interface AnswerSchema<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> };
      };
}

/** An answer the CLI reads, and what it is called in a sentence: `a list of confirmations`. */
export interface Expected<T> {
  readonly name: string;
  readonly schema: AnswerSchema<T>;
}

/**
 * `body` read as `expected`: the CLI acts only on answers of the interface's shape (a version
 * number it writes a file for, a project it reports), else the run fails with the first
 * mismatch the schema found.
 */
export function answerAs<T>(expected: Expected<T>, body: unknown): T {
  const parsed = expected.schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  throw new CommandFailure(
    'bad_answer',
    `the service sent an answer that is not ${expected.name} (${quoted(`${where}${issue?.message ?? 'a different shape'}`)})`,
  );
}
