import { draftErrorCodes } from '@galley/core';
import type { CheckReport, DraftError, DraftErrorCode } from '@galley/core';
import type { LockRecord } from '@galley/store';
import { fieldErrorsOf } from '../http/parse.js';
import { defineProblems } from '../http/problem.js';
import type { HttpProblem, ProblemCatalog } from '../http/problem.js';
import { heldLockBody } from './present.js';

const OPERATION_REFUSED = { status: 422, title: 'Operation refused' } as const;

/** The draft engine's refusals answer under their own codes: a code it adds needs no entry here. */
const operationRefusals = Object.fromEntries(
  Object.keys(draftErrorCodes).map((code) => [code, OPERATION_REFUSED]),
) as Record<DraftErrorCode, typeof OPERATION_REFUSED>;

/** The editing interface's own refusals, with their status and title. */
export const V1_PROBLEMS = {
  ...operationRefusals,
  not_found: { status: 404, title: 'Not found' },
  no_confirmation: { status: 404, title: 'No confirmed version yet' },
  no_draft: { status: 404, title: 'No open draft' },
  no_revision: { status: 404, title: 'No such revision of the page' },
  forbidden: { status: 403, title: 'Not allowed with this role' },
  owner_required: { status: 403, title: 'Only an owner may do this' },
  confirmation_requires_person: {
    status: 403,
    title: 'Only a person on the editing screen may confirm',
  },
  lock_held: { status: 423, title: 'Another client is editing' },
  unknown_account: { status: 422, title: 'No such account' },
  last_owner: { status: 422, title: 'The project needs an owner' },
  folder_check_failed: { status: 422, title: 'The folder does not satisfy the contract' },
  lock_required: { status: 409, title: 'Take the lock first' },
  stale_draft_token: { status: 409, title: 'The draft token is not the newest one' },
  revision_conflict: { status: 409, title: 'The saved version changed' },
  // Also draft engine codes, answered only by undo and redo: a conflict with the draft's or the
  // project's state (409), not a refused operation (422).
  nothing_to_undo: { status: 409, title: 'Nothing to undo' },
  nothing_to_redo: { status: 409, title: 'Nothing to redo' },
  draft_unusable: { status: 409, title: 'The draft can no longer be rebuilt' },
  commit_id_reused: { status: 409, title: 'The commit_id belongs to another save' },
  project_busy: { status: 503, title: 'Other changes of the project came first' },
  stopping: { status: 503, title: 'The server is stopping' },
} as const satisfies ProblemCatalog;

export type V1ProblemCode = keyof typeof V1_PROBLEMS;

export const v1ProblemOf = defineProblems(V1_PROBLEMS);

/** 422 with the check report: `checks`, `violations` and `contracts`. */
export function folderCheckFailed(report: CheckReport): HttpProblem {
  const failed = Object.entries(report.checks)
    .filter(([, outcome]) => outcome === 'failed')
    .map(([name]) => name);
  return v1ProblemOf('folder_check_failed', {
    detail: `Failed checks: ${failed.join(', ') || 'none'}.`,
    extras: { checks: report.checks, violations: report.violations, contracts: report.contracts },
  });
}

/** A refused operation: 422 with `errors` by request field; nothing changed. */
export function operationRefused(errors: readonly DraftError[]): HttpProblem {
  return v1ProblemOf(errors[0]?.code ?? 'invalid_operation', {
    detail: errors.map((e) => e.message).join(' '),
    extras: { errors: fieldErrorsOf(errors.map((e) => [e.field ?? '', e.message])) },
  });
}

/** 423: another (account, client) holds the project's lock; the answer says who, and until when. */
export function lockHeld(lock: LockRecord): HttpProblem {
  return v1ProblemOf('lock_held', {
    detail: `${lock.holderName} is editing (${lock.label || lock.kind}).`,
    extras: { lock: heldLockBody(lock) },
  });
}

/** 422 `last_owner`: the change would leave the project without an owner. */
export function lastOwner(): HttpProblem {
  return v1ProblemOf('last_owner', {
    detail: 'The project must keep at least one owner.',
    extras: { errors: fieldErrorsOf([['role', 'the last owner cannot be lowered or removed']]) },
  });
}

/** 422 `unknown_account`: only an existing account can be made a member. */
export function unknownAccount(): HttpProblem {
  return v1ProblemOf('unknown_account', {
    detail: 'Only an existing account can be made a member.',
    extras: { errors: fieldErrorsOf([['email', 'no account has this e-mail address']]) },
  });
}
