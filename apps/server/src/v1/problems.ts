import type { CheckReport } from '@galley/core';
import { HttpProblem } from '../http/problem.js';

/** The editing interface's own refusals: status and title per stable code. */
export const V1_PROBLEMS = {
  not_found: [404, 'Not found'],
  no_confirmation: [404, 'No confirmed version yet'],
  no_draft: [404, 'No open draft'],
  no_revision: [404, 'No such revision of the page'],
  forbidden: [403, 'Not allowed with this role'],
  owner_required: [403, 'Only an owner may do this'],
  confirmation_requires_person: [403, 'Only a person on the editing screen may confirm'],
  lock_held: [423, 'Another client is editing'],
  unknown_account: [422, 'No such account'],
  last_owner: [422, 'The project needs an owner'],
  folder_check_failed: [422, 'The folder does not satisfy the contract'],
  lock_required: [409, 'Take the lock first'],
  stale_draft_token: [409, 'The draft token is not the newest one'],
  revision_conflict: [409, 'The saved version changed'],
  nothing_to_undo: [409, 'Nothing to undo'],
  nothing_to_redo: [409, 'Nothing to redo'],
  draft_unusable: [409, 'The draft can no longer be rebuilt'],
  commit_id_reused: [409, 'The commit_id belongs to another save'],
  project_busy: [503, 'Other changes of the project came first'],
  too_many_streams: [429, 'Too many event streams'],
  stopping: [503, 'The server is stopping'],
} as const satisfies Record<string, readonly [number, string]>;

export type V1ProblemCode = keyof typeof V1_PROBLEMS;

export function v1Problem(
  code: V1ProblemCode,
  detail: string,
  extras?: Record<string, unknown>,
  headers?: Record<string, string>,
): HttpProblem {
  const [status, title] = V1_PROBLEMS[code];
  return new HttpProblem({
    status,
    code,
    title,
    detail,
    ...(extras ? { extras } : {}),
    ...(headers ? { headers } : {}),
  });
}

/** 422 with the check report: `checks`, `violations` and `contracts`. */
export function folderCheckFailed(report: CheckReport): HttpProblem {
  const failed = Object.entries(report.checks)
    .filter(([, outcome]) => outcome === 'failed')
    .map(([name]) => name);
  return v1Problem('folder_check_failed', `Failed checks: ${failed.join(', ') || 'none'}.`, {
    checks: report.checks,
    violations: report.violations,
    contracts: report.contracts,
  });
}
