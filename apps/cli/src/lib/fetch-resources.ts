import { styleSheetLoads, type FetchedResource } from '@galley/core';
import { EnvHttpProxyAgent, fetch } from 'undici';
import type { Progress } from './progress.js';

// `galley convert --vendor`: the fetching, on the user's machine (the server never fetches). Through
// undici's EnvHttpProxyAgent, so HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) are honoured
// as curl and most tools read them.

export interface FetchLimits {
  /** Resources fetched at most (style sheets' own loads counted); the rest are reported. */
  readonly maxFiles: number;
  /** Bytes one resource may have; a larger one is stopped while it streams. */
  readonly maxBytes: number;
  /** Milliseconds one request may take, body included. */
  readonly timeoutMs: number;
}

export const defaultFetchLimits: FetchLimits = {
  maxFiles: 500,
  maxBytes: 20 * 1024 * 1024,
  timeoutMs: 30_000,
};

export interface FetchFailure {
  readonly url: string;
  /** One line a person can act on: `HTTP 404`, `timed out after 30 s`, `larger than … bytes`. */
  readonly reason: string;
}

export interface FetchOutcome {
  readonly fetched: ReadonlyMap<string, FetchedResource>;
  readonly failures: readonly FetchFailure[];
}

/** Requests in flight at once: enough to hide latency, few enough to be polite to a CDN. */
const parallel = 6;

/**
 * Fetches `urls` and what the fetched style sheets load in turn (`@import`, `url()`: fonts,
 * images), each at most once. Never throws for a URL: every failure is reported with its reason.
 */
export async function fetchResources(
  urls: readonly string[],
  limits: FetchLimits = defaultFetchLimits,
  progress?: Progress,
): Promise<FetchOutcome> {
  const dispatcher = new EnvHttpProxyAgent();
  const fetched = new Map<string, FetchedResource>();
  const failures: FetchFailure[] = [];
  const seen = new Set<string>();
  const queue: string[] = [];
  const enqueue = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    if (seen.size > limits.maxFiles)
      failures.push({ url, reason: `not fetched: more than ${limits.maxFiles} resources` });
    else queue.push(url);
  };
  urls.forEach(enqueue);
  progress?.phase('fetching external resources', queue.length);
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const result = await fetchOne(url, limits, dispatcher);
      progress?.advance();
      if ('reason' in result) {
        failures.push({ url, reason: result.reason });
        continue;
      }
      fetched.set(url, result);
      if (isStyleSheet(url, result.contentType))
        styleSheetLoads(new TextDecoder().decode(result.bytes), result.base ?? url).forEach(
          enqueue,
        );
    }
  };
  try {
    // Workers that find the queue empty end; a style sheet's loads are taken by the workers
    // still running, so the last worker drains what the last style sheet added.
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await dispatcher.close();
  }
  failures.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { fetched, failures };
}

function isStyleSheet(url: string, contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'text/css' || (type === undefined && new URL(url).pathname.endsWith('.css'));
}

async function fetchOne(
  url: string,
  limits: FetchLimits,
  dispatcher: EnvHttpProxyAgent,
): Promise<FetchedResource | { reason: string }> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await fetch(url, { dispatcher, signal, redirect: 'follow' });
    if (!response.ok) {
      await response.body?.cancel();
      return {
        reason: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      };
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > limits.maxBytes) {
      await response.body?.cancel();
      return { reason: tooLarge(limits) };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const piece of response.body ?? []) {
      const chunk = piece as Uint8Array;
      size += chunk.length;
      if (size > limits.maxBytes) return { reason: tooLarge(limits) };
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return {
      bytes,
      contentType: response.headers.get('content-type') ?? undefined,
      base: response.url || url,
    };
  } catch (error) {
    if (signal.aborted) return { reason: `timed out after ${limits.timeoutMs / 1000} s` };
    return { reason: networkReason(error) };
  }
}

function tooLarge(limits: FetchLimits): string {
  return `larger than ${limits.maxBytes} bytes (--vendor-max-bytes)`;
}

/** undici's `fetch failed` says nothing: the cause (ECONNREFUSED, ENOTFOUND…) does. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string')
    return typeof cause.message === 'string' ? `${cause.code}: ${cause.message}` : cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
