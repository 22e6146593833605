import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defaultPoolThreads } from './pool/threads.js';
import express from 'express';
import { z } from 'zod';
import { RETRY_DELAYS_MS } from './webhooks/dispatcher.js';
import { bytesUrlProblem } from '@galley/store';

/** Every setting of the server, read once at start (see docs/operations.md). */
export interface ServerConfig {
  host: string;
  port: number;
  /** Data folder: the SQLite file and the byte store (`bytes/`) live here. */
  dataDir: string;
  /** PostgreSQL URL for records; null for the embedded SQLite store. */
  databaseUrl: string | null;
  /**
   * `s3://bucket/prefix`: bytes in an S3-compatible bucket (endpoint, region and credentials from
   * the AWS_* variables) instead of the data folder; null: in `<data>/bytes`.
   */
  bytesUrl: string | null;
  /** Origin and prefix the editing interface is reached at, without a trailing slash. */
  baseUrl: string;
  /** Origin and prefix the asset interface is reached at, without a trailing slash. */
  assetBaseUrl: string;
  /** Requests a minute per token (per IP address without one). */
  rateLimitPerMinute: number;
  /** Largest JSON body accepted (413 beyond). */
  jsonLimitBytes: number;
  sessionTtlSeconds: number;
  /** Express `trust proxy`: set when behind a reverse proxy so rate limits see client addresses. */
  trustProxy: boolean | number | string;
  logLevel: string;
  /**
   * Key that signs preview passes; null: a random key per process. Set the same value on every
   * process behind one address so a pass issued by one is accepted by the others.
   */
  previewSecret: string | null;
  /** Page event streams (`GET /api/v1/pages/{page}/events`) one account may have open at once. */
  eventStreamsPerAccount: number;
  /** Whether webhooks may reach loopback, private and link-local addresses (never metadata ones). */
  webhooksAllowPrivate: boolean;
  /** Pauses in seconds before each new try of a failed webhook delivery (then it has failed). */
  webhookRetrySeconds: number[];
  /** How long a webhook delivery may wait for its answer. */
  webhookTimeoutSeconds: number;
  /** How often an MCP session renews each lock it holds (well within the lock's 60 seconds). */
  mcpRenewSeconds: number;
  /** MCP sessions (over HTTP, at /mcp) one account may have live at once, across processes. */
  mcpSessionsPerAccount: number;
  /** Worker threads of this process's pool (0: all work on the event loop). */
  poolThreads: number;
  /** Work on fewer bytes than this runs on the event loop, not in the pool. */
  poolInlineBytes: number;
  /** Server processes `galley serve` runs (one per core by default; 1: a single process). */
  workers: number;
  /** Bearer secret that reads `GET /metrics` from any address; null: loopback and the office only. */
  metricsToken: string | null;
}

export class ConfigError extends Error {
  readonly code = 'invalid_config';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const MiB = 1024 * 1024;
const number = (min: number) => z.coerce.number().int().min(min);
/**
 * Below this many bytes of input, work is done on the event loop: a worker's round trip costs
 * more than the work (see apps/server/bench/loop.bench.ts).
 */
const POOL_INLINE_BYTES = 256 * 1024;
/** The longest pause between renewals of an MCP session's lock: its 60 seconds, less a margin. */
const MCP_RENEW_MAX_SECONDS = 50;

const EnvSchema = z.object({
  GALLEY_HOST: z.string().min(1).default('127.0.0.1'),
  GALLEY_PORT: number(0).max(65535).default(8080),
  GALLEY_DATA_DIR: z.string().min(1).default('./galley-data'),
  GALLEY_DATABASE_URL: z.string().startsWith('postgres').optional(),
  GALLEY_BYTES_URL: z
    .string()
    .superRefine((value, ctx) => {
      const problem = bytesUrlProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  GALLEY_S3_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).optional(),
  GALLEY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GALLEY_ASSET_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GALLEY_RATE_LIMIT: number(1).default(600),
  GALLEY_JSON_LIMIT_BYTES: number(1).default(16 * MiB),
  GALLEY_SESSION_TTL_SECONDS: number(60).default(12 * 3600),
  GALLEY_TRUST_PROXY: z
    .string()
    .transform(parseTrustProxy)
    .refine(
      usableTrustProxy,
      'true, false, a number of hops, or addresses and subnets separated by commas (loopback, 10.0.0.0/8, …)',
    )
    .optional(),
  GALLEY_PREVIEW_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  GALLEY_EVENT_STREAMS_PER_ACCOUNT: number(1).default(16),
  GALLEY_WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  GALLEY_WEBHOOK_RETRY_SECONDS: z
    .string()
    .transform((value) => value.split(',').map(Number))
    .refine(
      (list) => list.every((n) => Number.isFinite(n) && n >= 0),
      'seconds separated by commas',
    )
    .optional(),
  GALLEY_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(10),
  GALLEY_MCP_RENEW_SECONDS: z.coerce.number().positive().max(MCP_RENEW_MAX_SECONDS).default(20),
  GALLEY_MCP_SESSIONS_PER_ACCOUNT: number(1).default(16),
  GALLEY_POOL_THREADS: number(0).max(256).optional(),
  GALLEY_POOL_INLINE_BYTES: number(0).default(POOL_INLINE_BYTES),
  GALLEY_WORKERS: number(1).max(256).optional(),
  GALLEY_METRICS_TOKEN: z.string().min(32, 'at least 32 characters').optional(),
  GALLEY_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
});

/** Reads the settings from `env` (empty values count as unset); `overrides` win (CLI flags). */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid settings: ${issues.join('; ')}`);
  }
  const e = parsed.data;
  const port = overrides.port ?? e.GALLEY_PORT;
  const baseUrl = trimSlash(overrides.baseUrl ?? e.GALLEY_BASE_URL ?? `http://localhost:${port}`);
  return {
    host: e.GALLEY_HOST,
    port,
    dataDir: resolve(e.GALLEY_DATA_DIR),
    databaseUrl: e.GALLEY_DATABASE_URL ?? null,
    bytesUrl: e.GALLEY_BYTES_URL ?? null,
    baseUrl,
    assetBaseUrl: trimSlash(overrides.assetBaseUrl ?? e.GALLEY_ASSET_BASE_URL ?? baseUrl),
    rateLimitPerMinute: e.GALLEY_RATE_LIMIT,
    jsonLimitBytes: e.GALLEY_JSON_LIMIT_BYTES,
    sessionTtlSeconds: e.GALLEY_SESSION_TTL_SECONDS,
    trustProxy: e.GALLEY_TRUST_PROXY ?? false,
    logLevel: e.GALLEY_LOG_LEVEL,
    previewSecret: e.GALLEY_PREVIEW_SECRET ?? null,
    eventStreamsPerAccount: e.GALLEY_EVENT_STREAMS_PER_ACCOUNT,
    webhooksAllowPrivate: e.GALLEY_WEBHOOKS_ALLOW_PRIVATE === 'true',
    webhookRetrySeconds: e.GALLEY_WEBHOOK_RETRY_SECONDS ?? RETRY_DELAYS_MS.map((ms) => ms / 1000),
    webhookTimeoutSeconds: e.GALLEY_WEBHOOK_TIMEOUT_SECONDS,
    mcpRenewSeconds: e.GALLEY_MCP_RENEW_SECONDS,
    mcpSessionsPerAccount: e.GALLEY_MCP_SESSIONS_PER_ACCOUNT,
    poolThreads: e.GALLEY_POOL_THREADS ?? defaultPoolThreads(present['GALLEY_WORKERS']),
    poolInlineBytes: e.GALLEY_POOL_INLINE_BYTES,
    workers: e.GALLEY_WORKERS ?? availableParallelism(),
    metricsToken: e.GALLEY_METRICS_TOKEN ?? null,
    ...withoutUndefined(overrides),
    ...(overrides.dataDir ? { dataDir: resolve(overrides.dataDir) } : {}),
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Whether Express takes `value` as `trust proxy` (it throws on an address it cannot read). */
function usableTrustProxy(value: boolean | number | string): boolean {
  try {
    express().set('trust proxy', value);
    return true;
  } catch {
    return false;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
