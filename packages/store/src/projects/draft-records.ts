// The projects domain's draft record and the row mappings behind it (as assets/records.ts is
// for assets), apart from drafts-repository.ts so that its reads stay a file to read whole.
import { sql } from 'kysely';
import type { LockHolder, LockKind, LockRecord } from './locks-repository.js';

export interface DraftRecord {
  id: string;
  pageId: string;
  projectId: string;
  accountNumber: number;
  client: string;
  baseRevision: number;
  baseSha256: string;
  /** The newest token and the number of the event that made it (the base's when none). */
  token: string;
  sequence: number;
  baseSequence: number;
  /** Fingerprint and answer of the request that produced `token`, for an exact retry. */
  lastFingerprint: string | null;
  lastAnswer: unknown;
  createdAt: string;
}

/** The columns of a draft and its newest event, as every draft read selects them. */
export const DRAFT_COLUMNS = sql`d.id as d_id, d.project_id as d_project_id, d.base_revision as d_base_revision,
  d.base_sha256 as d_base_sha256, d.token as d_token, d.base_seq as d_base_seq,
  d.created_at as d_created_at, e.seq as e_seq, e.token as e_token,
  e.fingerprint as e_fingerprint, e.answer as e_answer`;

export interface DraftColumns {
  d_id: string | null;
  d_project_id: string | null;
  d_base_revision: number | null;
  d_base_sha256: string | null;
  d_token: string | null;
  d_base_seq: number | null;
  d_created_at: string | null;
  e_seq: number | null;
  e_token: string | null;
  e_fingerprint: string | null;
  e_answer: string | null;
}

export interface LockColumns {
  lock_account: number | null;
  lock_client: string | null;
  lock_kind: string | null;
  lock_label: string | null;
  lock_acquired_at: string | null;
  lock_expires_at: string | null;
  lock_holder: string | null;
}

export type LockRow = LockColumns & { id: string };

export function toDraft(row: DraftColumns, pageId: string, holder: LockHolder): DraftRecord | null {
  if (row.d_id === null) return null;
  const baseSequence = row.d_base_seq!;
  // The newest event, or the tombstone a save left of it: either made the newest token.
  const event = row.e_seq !== null && row.e_seq >= baseSequence;
  return {
    id: row.d_id,
    pageId,
    projectId: row.d_project_id!,
    accountNumber: holder.accountNumber,
    client: holder.client,
    baseRevision: row.d_base_revision!,
    baseSha256: row.d_base_sha256!,
    token: row.e_token ?? row.d_token!,
    sequence: row.e_seq ?? baseSequence,
    baseSequence,
    lastFingerprint: event ? row.e_fingerprint : null,
    lastAnswer: event && row.e_answer !== null ? (JSON.parse(row.e_answer) as unknown) : null,
    createdAt: row.d_created_at!,
  };
}

export function toLock(row: LockRow): LockRecord | null {
  if (row.lock_account === null) return null;
  return {
    projectId: row.id,
    accountNumber: row.lock_account,
    client: row.lock_client!,
    kind: row.lock_kind as LockKind,
    label: row.lock_label!,
    holderName: row.lock_holder ?? '',
    acquiredAt: row.lock_acquired_at!,
    expiresAt: row.lock_expires_at!,
  };
}
