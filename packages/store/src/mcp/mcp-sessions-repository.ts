import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { LockHolder } from '../projects/locks-repository.js';
import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';
import type { McpSessionsTable } from './tables.js';

export interface McpSessionRecord {
  id: string;
  /** Who its locks are held by: the account and the session's own editor client. */
  holder: LockHolder;
  /** The API token it was started with. */
  tokenId: string;
  label: string;
  /** The params of the client's `initialize` request (JSON), replayed to rebuild the session. */
  initialize: string;
  createdAt: string;
  seenAt: string;
}

export type OpenMcpSessionResult = { ok: true; session: McpSessionRecord } | { ok: false };

/**
 * MCP sessions over Streamable HTTP, shared by every process of the service. A session is live
 * until it is ended (its `ended_at` set, once: whoever sets it releases its locks) or unused
 * for `idleSeconds`; a process serving a request of a live session it does not hold builds
 * its own copy from the row.
 */
export class McpSessionsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Starts a session, unless its account has `maxLive` live sessions already. The count and the
   * insert are one statement; two initializes racing on PostgreSQL may still both pass it, so
   * the bound can be passed by the few sessions started in the same instant.
   */
  async open(input: {
    id: string;
    holder: LockHolder;
    tokenId: string;
    label: string;
    initialize: string;
    maxLive: number;
    idleSeconds: number;
  }): Promise<OpenMcpSessionResult> {
    const now = isoTime(this.#scope.clock.now());
    const { accountNumber, client } = input.holder;
    const live = this.#scope.db
      .selectFrom('mcp_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('account_number', '=', accountNumber)
      .where('ended_at', 'is', null)
      .where('seen_at', '>', this.#idleCutoff(input.idleSeconds));
    const inserted = await this.#scope.db
      .insertInto('mcp_sessions')
      .columns([
        'id',
        'account_number',
        'token_id',
        'client',
        'label',
        'initialize',
        'created_at',
        'seen_at',
      ])
      .expression(
        this.#scope.db
          .selectNoFrom([
            sql<string>`${input.id}`.as('id'),
            sql<number>`cast(${accountNumber} as integer)`.as('account_number'),
            sql<string>`${input.tokenId}`.as('token_id'),
            sql<string>`${client}`.as('client'),
            sql<string>`${input.label}`.as('label'),
            sql<string>`${input.initialize}`.as('initialize'),
            sql<string>`${now}`.as('created_at'),
            sql<string>`${now}`.as('seen_at'),
          ])
          .where((eb) => eb(live, '<', input.maxLive)),
      )
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { ok: false };
    return {
      ok: true,
      session: {
        id: input.id,
        holder: input.holder,
        tokenId: input.tokenId,
        label: input.label,
        initialize: input.initialize,
        createdAt: now,
        seenAt: now,
      },
    };
  }

  /** The account's live session `id`, marked as used now; null when it is ended, idle or not its. */
  async use(
    id: string,
    accountNumber: number,
    idleSeconds: number,
  ): Promise<McpSessionRecord | null> {
    const row = await this.#scope.db
      .updateTable('mcp_sessions')
      .set({ seen_at: isoTime(this.#scope.clock.now()) })
      .where('id', '=', id)
      .where('account_number', '=', accountNumber)
      .where('ended_at', 'is', null)
      .where('seen_at', '>', this.#idleCutoff(idleSeconds))
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /**
   * Ends the session: the one caller that ends it gets its record (and releases its locks);
   * null when it had ended already.
   */
  async end(id: string): Promise<McpSessionRecord | null> {
    const row = await this.#scope.db
      .updateTable('mcp_sessions')
      .set({ ended_at: isoTime(this.#scope.clock.now()) })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Ids of the sessions not ended but unused for `idleSeconds` (to end them). */
  async idle(idleSeconds: number, limit = 100): Promise<string[]> {
    const rows = await this.#scope.db
      .selectFrom('mcp_sessions')
      .select('id')
      .where('ended_at', 'is', null)
      .where('seen_at', '<=', this.#idleCutoff(idleSeconds))
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Forgets sessions ended more than `seconds` ago. */
  async forgetEnded(seconds: number): Promise<void> {
    await this.#scope.db
      .deleteFrom('mcp_sessions')
      .where('ended_at', '<=', this.#idleCutoff(seconds))
      .execute();
  }

  /**
   * Renews the lock the session's holder has on the project for `ttlSeconds` more, in one
   * statement that also sees the session still live and its token valid: a lock released,
   * expired or taken by another, a session ended, or its token revoked or expired, is not
   * renewed (false). So a process holding a stale copy of an ended session never takes its lock
   * again.
   */
  async renewLock(input: {
    sessionId: string;
    projectId: string;
    holder: LockHolder;
    ttlSeconds: number;
  }): Promise<boolean> {
    const now = this.#scope.clock.now();
    const result = await this.#scope.db
      .updateTable('project_locks')
      .set({ expires_at: isoTime(addSeconds(now, input.ttlSeconds)) })
      .where('project_id', '=', input.projectId)
      .where('account_number', '=', input.holder.accountNumber)
      .where('client', '=', input.holder.client)
      .where('expires_at', '>', isoTime(now))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('mcp_sessions as s')
            .innerJoin('api_tokens as t', 't.id', 's.token_id')
            .select('s.id')
            .where('s.id', '=', input.sessionId)
            .where('s.ended_at', 'is', null)
            .where('t.revoked_at', 'is', null)
            .where('t.expires_at', '>', isoTime(now)),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  #idleCutoff(seconds: number): string {
    return isoTime(addSeconds(this.#scope.clock.now(), -seconds));
  }
}

function toRecord(row: Selectable<McpSessionsTable>): McpSessionRecord {
  return {
    id: row.id,
    holder: { accountNumber: row.account_number, client: row.client },
    tokenId: row.token_id,
    label: row.label,
    initialize: row.initialize,
    createdAt: row.created_at,
    seenAt: row.seen_at,
  };
}
