import { newId } from '../ids.js';
import { deleteRowByKey } from '../rows.js';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { EventRecord, NewEvent } from './records.js';
import type { WebhookDeliveriesTable, WebhooksTable } from './tables.js';

export interface WebhookRecord {
  id: string;
  accountNumber: number;
  /** The project whose events are sent; null: the account's assets. */
  projectId: string | null;
  url: string;
  /** The signing secret's base64 bytes. */
  secret: string;
  kinds: string[];
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventSeq: number;
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastResponse: string | null;
}

/** The outcome of one try, as the delivering process records it. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  /** When to try again (pending only). */
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastResponse: string | null;
}

function toWebhook(row: WebhooksTable): WebhookRecord {
  return {
    id: row.id,
    accountNumber: row.account_number,
    projectId: row.project_id,
    url: row.url,
    secret: row.secret,
    kinds: JSON.parse(row.kinds) as string[],
    createdAt: row.created_at,
  };
}

function toDelivery(row: WebhookDeliveriesTable): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventSeq: Number(row.event_seq),
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastResponse: row.last_response,
  };
}

/** Whose webhooks may want an event: its project's, or (with none) its account's own. */
const ownerOf = (event: Pick<NewEvent, 'projectId' | 'accountNumber'>) =>
  event.projectId !== null ? `p ${event.projectId}` : `a ${String(event.accountNumber)}`;

/** The webhooks that may want some event, by owner (`ownerOf`), each with the kinds it asked for. */
export type WebhooksByOwner = ReadonlyMap<string, ReadonlyArray<{ id: string; kinds: string[] }>>;

/** The webhooks of the projects and accounts of `events`, read in one statement for the lot. */
export async function webhooksFor(
  scope: RepoScope,
  events: readonly NewEvent[],
): Promise<WebhooksByOwner> {
  const projects = [...new Set(events.flatMap((event) => event.projectId ?? []))];
  const accounts = [
    ...new Set(
      events.flatMap((event) => (event.projectId === null ? (event.accountNumber ?? []) : [])),
    ),
  ];
  const byOwner = new Map<string, Array<{ id: string; kinds: string[] }>>();
  if (projects.length + accounts.length === 0) return byOwner;
  const rows = await scope.db
    .selectFrom('webhooks')
    .select(['id', 'kinds', 'project_id', 'account_number'])
    .where((eb) =>
      eb.or([
        ...(projects.length > 0 ? [eb('project_id', 'in', projects)] : []),
        ...(accounts.length > 0
          ? [eb.and([eb('project_id', 'is', null), eb('account_number', 'in', accounts)])]
          : []),
      ]),
    )
    .execute();
  for (const row of rows) {
    const owner = ownerOf({ projectId: row.project_id, accountNumber: row.account_number });
    const hooks = byOwner.get(owner) ?? [];
    hooks.push({ id: row.id, kinds: JSON.parse(row.kinds) as string[] });
    byOwner.set(owner, hooks);
  }
  return byOwner;
}

/** The webhooks of `hooks` that asked for `event`. */
export function webhooksWanting(hooks: WebhooksByOwner, event: NewEvent) {
  return (hooks.get(ownerOf(event)) ?? []).filter((hook) => hook.kinds.includes(event.kind));
}

/**
 * A delivery for every webhook of `hooks` that asked for each of `events`, in one statement
 * (within the events' own transaction). Answers how many deliveries it wrote.
 */
export async function enqueueDeliveries(
  tx: RepoScope,
  events: readonly EventRecord[],
  hooks: WebhooksByOwner,
): Promise<number> {
  const deliveries = events.flatMap((event) =>
    webhooksWanting(hooks, event).map((hook) => ({
      id: newId('dlv'),
      webhook_id: hook.id,
      event_seq: event.seq,
      status: 'pending',
      attempts: 0,
      created_at: event.at,
      next_attempt_at: event.at,
    })),
  );
  if (deliveries.length > 0)
    await tx.db.insertInto('webhook_deliveries').values(deliveries).execute();
  return deliveries.length;
}

/** Deliveries due now and held by no process, soonest first, at most `limit`. */
function dueDeliveries(scope: RepoScope, limit: number) {
  const now = isoTime(scope.clock.now());
  return scope.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
}

/** Webhooks (a URL that receives chosen events) and their deliveries, with every try's answer. */
export class WebhooksRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  async create(input: Omit<WebhookRecord, 'id' | 'createdAt'>): Promise<WebhookRecord> {
    const row: WebhooksTable = {
      id: newId('whk'),
      account_number: input.accountNumber,
      project_id: input.projectId,
      url: input.url,
      secret: input.secret,
      kinds: JSON.stringify(input.kinds),
      created_at: isoTime(this.#scope.clock.now()),
    };
    await this.#scope.db.insertInto('webhooks').values(row).execute();
    return toWebhook(row);
  }

  /** A project's webhooks, or (projectId null) the account's asset webhooks; oldest first. */
  async list(where: { projectId: string } | { accountNumber: number }): Promise<WebhookRecord[]> {
    let query = this.#scope.db.selectFrom('webhooks').selectAll().orderBy('created_at');
    query =
      'projectId' in where
        ? query.where('project_id', '=', where.projectId)
        : query.where('project_id', 'is', null).where('account_number', '=', where.accountNumber);
    return (await query.execute()).map(toWebhook);
  }

  async find(id: string): Promise<WebhookRecord | null> {
    const row = await this.#scope.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toWebhook(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return deleteRowByKey(this.#scope.db, 'webhooks', 'id', id);
  }

  /** The webhook's deliveries, newest first. */
  async deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.#scope.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('event_seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async delivery(id: string): Promise<DeliveryRecord | null> {
    const row = await this.#scope.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  /** A new delivery of the same event to the same webhook, due now. */
  async replay(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    const now = isoTime(this.#scope.clock.now());
    const row: WebhookDeliveriesTable = {
      id: newId('dlv'),
      webhook_id: delivery.webhookId,
      event_seq: delivery.eventSeq,
      status: 'pending',
      attempts: 0,
      created_at: now,
      next_attempt_at: now,
      claimed_until: null,
      last_attempt_at: null,
      last_status: null,
      last_response: null,
    };
    await this.#scope.db.insertInto('webhook_deliveries').values(row).execute();
    return toDelivery(row);
  }

  /**
   * Takes up to `limit` due deliveries for this process until `holdUntil`: another process takes
   * a row only once its hold has passed (a process that died mid-try), so each try runs once.
   */
  async claimDue(limit: number, holdUntil: Date): Promise<DeliveryRecord[]> {
    // Every event wakes the dispatcher and most find nothing due (no webhook wanted them): that
    // is told by a read, without the transaction (on SQLite, the write lock) a claim takes.
    if ((await dueDeliveries(this.#scope, 1).execute()).length === 0) return [];
    return this.#scope.transaction(async (tx) => {
      let due = dueDeliveries(tx, limit);
      if (tx.kind === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = await tx.db
        .updateTable('webhook_deliveries')
        .set({ claimed_until: isoTime(holdUntil) })
        .where('id', 'in', ids)
        .returningAll()
        .execute();
      return rows.map(toDelivery);
    });
  }

  /** Records a try's outcome and lets the delivery go. */
  async recordAttempt(id: string, outcome: AttemptOutcome): Promise<void> {
    await this.#scope.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: outcome.status,
        attempts: eb('attempts', '+', 1),
        next_attempt_at: isoTime(outcome.nextAttemptAt),
        claimed_until: null,
        last_attempt_at: isoTime(this.#scope.clock.now()),
        last_status: outcome.lastStatus,
        last_response: outcome.lastResponse,
      }))
      .where('id', '=', id)
      .execute();
  }
}
