import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { createClient, GalleyApiError } from '@galley/client';
import type { GalleyClient } from '@galley/client';
import type { CliIo } from '../io.js';
import { CommandFailure, InputError } from './exit.js';
import type { FailureCode } from './exit.js';

export interface RemoteOptions {
  server?: string;
  token?: string;
}

/** `--server` and `--token`, each with its environment variable as the fallback. */
export function withRemoteOptions(command: Command): Command {
  return command
    .option('--server <url>', 'the Galley service, e.g. https://galley.example.org (GALLEY_SERVER)')
    .option('--token <token>', 'an API token, glly_… (GALLEY_TOKEN; prefer it: argv is visible)');
}

export interface Remote {
  readonly client: GalleyClient;
  readonly server: string;
}

/**
 * A client for one run. Its X-Editor-Client is a new UUID per run (spec rule 1), so the service
 * tells this run apart from the screen and from other runs; `signal` aborts requests in flight.
 */
export function connect(opts: RemoteOptions, env: CliIo['env'], signal?: AbortSignal): Remote {
  const server = opts.server || env.GALLEY_SERVER;
  const token = opts.token || env.GALLEY_TOKEN;
  if (!server)
    throw new InputError('no_server', 'no service given: pass --server URL or set GALLEY_SERVER');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new InputError('invalid_option', `--server ${server} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError('invalid_option', `--server ${server} is not an http(s) URL`);
  if (!token)
    throw new InputError('no_token', 'no API token given: set GALLEY_TOKEN or pass --token');
  const client = createClient({
    baseUrl: url.origin + url.pathname.replace(/\/$/, ''),
    token,
    editorClient: randomUUID(),
    ...(signal ? { fetch: (input, init) => fetch(input, { ...init, signal }) } : {}),
  });
  return { client, server: url.origin };
}

/** The body of a refusal that the documents give fields to: a 422's report, a 423's lock. */
interface RefusalBody {
  checks?: Record<string, string>;
  violations?: unknown[];
  lock?: { holder?: { name?: string }; label?: string; expires_at?: string };
}

/** Why the service refused, in a sentence a person can act on. */
function refusalText(error: GalleyApiError, what: string): string {
  const { status, problem } = error;
  const body = problem as typeof problem & RefusalBody;
  if (status === 401)
    return `the service refused the token (401): it is missing, expired or revoked`;
  if (status === 404) return `${what} was not found, or this account may not open it (404)`;
  if (status === 403) return `not allowed (403 ${problem.code}): ${problem.detail}`;
  if (status === 423 && body.lock) {
    const who = body.lock.holder?.name ?? 'another client';
    return `${what} is being edited by ${who}${body.lock.label ? ` (${body.lock.label})` : ''} until ${body.lock.expires_at ?? 'the lock expires'}; try again later (423)`;
  }
  if (status === 429) return 'too many requests (429); wait a minute and try again';
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
  if (error instanceof GalleyApiError)
    return new CommandFailure(failureCodes[error.status] ?? 'refused', refusalText(error, what));
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
