import { randomUUID } from 'node:crypto';
import { createClient } from '@galley/client';
import { agentLabel, createGalleyMcp } from '@galley/mcp';
import type { GalleyMcp } from '@galley/mcp';
import type { McpSessionRecord } from '@galley/store';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { InitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../deps.js';
import { LOCK_TTL_SECONDS } from '../editing/present.js';
import { EditingSignals } from '../editing/service/editing-signals.js';
import { releaseLock } from '../editing/service/locks.js';

/** A session nobody used for this long ends (its locks are released). */
export const MCP_IDLE_SECONDS = 30 * 60;
/** How often each process ends the idle sessions and forgets its copies no longer used. */
const SWEEP_MS = 60_000;
/** Ended sessions are kept this long (a late request is told the session is gone), then deleted. */
const KEEP_ENDED_SECONDS = 24 * 60 * 60;

/** This process's copy of a session: its MCP server and transport. */
export interface SessionCopy {
  readonly id: string;
  readonly mcp: GalleyMcp;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  usedAt: number;
}

/** Who asks: the account of the API token, and the token the session's tools act with. */
export interface Caller {
  accountNumber: number;
  token: string;
  tokenId: string;
}

/**
 * The MCP sessions as this process serves them. A session is a row of the store (any process
 * may serve its next request); a process holds a copy of each session it served, built from
 * the row when a request of a live session it does not hold arrives: the same editor client
 * (so the same lock holder) and label, and a transport initialized by replaying the client's
 * own `initialize`. Ending a session (its client deletes it, or it stays unused MCP_IDLE_SECONDS)
 * releases every lock its holder has, through the editing service's release (lock.released
 * events), whichever process took them; copies elsewhere stop renewing, as a renewal first sees
 * the session live (McpSessionsRepository.renewLock).
 */
export class McpSessions {
  readonly #deps: Deps;
  readonly #version: string;
  readonly #copies = new Map<string, Promise<SessionCopy | null>>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(deps: Deps, version: string) {
    this.#deps = deps;
    this.#version = version;
    this.#sweeper = setInterval(() => void this.#sweep(), SWEEP_MS);
    this.#sweeper.unref();
  }

  /** Starts a session for `initialize`; null when the account has its most sessions live. */
  async start(caller: Caller, initialize: InitializeRequest): Promise<SessionCopy | null> {
    const opened = await this.#deps.store.mcpSessions.open({
      id: randomUUID(),
      holder: { accountNumber: caller.accountNumber, client: randomUUID() },
      tokenId: caller.tokenId,
      label: agentLabel(initialize.params.clientInfo.name),
      initialize: JSON.stringify(initialize.params),
      maxLive: this.#deps.config.mcpSessionsPerAccount,
      idleSeconds: MCP_IDLE_SECONDS,
    });
    if (!opened.ok) return null;
    const copy = this.#build(opened.session, caller.token);
    this.#copies.set(opened.session.id, copy);
    return copy;
  }

  /** The caller's live session `id` as this process serves it; null when there is none. */
  async copyOf(id: string, caller: Caller): Promise<SessionCopy | null> {
    const record = await this.#deps.store.mcpSessions.use(
      id,
      caller.accountNumber,
      MCP_IDLE_SECONDS,
    );
    if (!record) {
      await this.#drop(id);
      return null;
    }
    let copy = this.#copies.get(id);
    if (!copy) {
      copy = this.#rebuild(record, caller.token);
      this.#copies.set(id, copy);
    }
    const held = await copy;
    if (held) held.usedAt = Date.now();
    return held;
  }

  /** Ends the session (once, whichever process asks): its locks are released. */
  async end(id: string): Promise<void> {
    const ended = await this.#deps.store.mcpSessions.end(id);
    await this.#drop(id);
    if (!ended) return;
    const { store, clock, events } = this.#deps;
    const release = { store, clock, signals: new EditingSignals(events) };
    const projects = await store.projectLocks.heldBy(ended.holder);
    await Promise.all(
      projects.map((projectId) =>
        releaseLock(release, projectId, ended.holder).catch((error: unknown) => {
          this.#deps.logger.warn({ err: error, projectId }, 'mcp: releasing a lock failed');
        }),
      ),
    );
  }

  /** Forgets this process's copies (the server stops); the sessions live on for other processes. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#copies.keys()].map((id) => this.#drop(id)));
  }

  async #rebuild(record: McpSessionRecord, token: string): Promise<SessionCopy | null> {
    try {
      const copy = await this.#build(record, token);
      await replayInitialize(copy.transport, record);
      return copy;
    } catch (error) {
      this.#deps.logger.error({ err: error }, 'mcp: rebuilding a session failed');
      this.#copies.delete(record.id);
      return null;
    }
  }

  async #build(record: McpSessionRecord, token: string): Promise<SessionCopy> {
    const { config, store } = this.#deps;
    const client = createClient({
      baseUrl: config.baseUrl,
      assetBaseUrl: config.assetBaseUrl,
      token,
      editorClient: record.holder.client,
    });
    const mcp = createGalleyMcp({
      client,
      version: this.#version,
      label: record.label,
      renewMs: config.mcpRenewSeconds * 1000,
      renew: (projectId) =>
        store.mcpSessions.renewLock({
          sessionId: record.id,
          projectId,
          holder: record.holder,
          ttlSeconds: LOCK_TTL_SECONDS,
        }),
      freshDrafts: true,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => record.id,
      onsessionclosed: (id) => this.end(id),
    });
    await mcp.server.connect(transport);
    return { id: record.id, mcp, transport, usedAt: Date.now() };
  }

  async #drop(id: string): Promise<void> {
    const copy = this.#copies.get(id);
    if (!copy) return;
    this.#copies.delete(id);
    await (await copy)?.mcp.drop();
  }

  async #sweep(): Promise<void> {
    try {
      const { mcpSessions } = this.#deps.store;
      for (const id of await mcpSessions.idle(MCP_IDLE_SECONDS)) await this.end(id);
      await mcpSessions.forgetEnded(KEEP_ENDED_SECONDS);
      const unused = Date.now() - MCP_IDLE_SECONDS * 1000;
      for (const [id, copy] of this.#copies) {
        if (((await copy)?.usedAt ?? 0) < unused) await this.#drop(id);
      }
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'mcp: sweeping the sessions failed');
    }
  }
}

/**
 * Brings a new transport to the state of the session's first one: initialized, with the
 * session's id. The SDK (1.32) has no setter for that, so the client's own `initialize` is
 * replayed through the transport's public handleRequest, its session id generator answering the
 * stored id; the server negotiates as it did the first time (protocol version, the client's
 * capabilities). The answer goes nowhere. A test (apps/server/test/mcp) fails if an SDK upgrade
 * changes this.
 */
async function replayInitialize(
  transport: WebStandardStreamableHTTPServerTransport,
  record: McpSessionRecord,
): Promise<void> {
  const request = new Request('http://galley.invalid/mcp', {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
  });
  const params = JSON.parse(record.initialize) as InitializeRequest['params'];
  const answer = await transport.handleRequest(request, {
    parsedBody: { jsonrpc: '2.0', id: 0, method: 'initialize', params },
  });
  const text = await answer.text();
  if (!answer.ok || transport.sessionId !== record.id) {
    throw new Error(`replaying initialize answered ${answer.status}: ${text.slice(0, 200)}`);
  }
}
