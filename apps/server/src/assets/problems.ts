import { HttpProblem, defineProblems, problemOf } from '../http/problem.js';
import type { ProblemCatalog } from '../http/problem.js';
import type { Answer } from './present.js';

// The refusals the asset services may throw, all from here: a service names a code, and this
// file (with the platform's catalog) alone says what it answers over HTTP.
export { fieldErrorsOf, validationFailed } from '../http/parse.js';
export type { FieldError } from '../http/parse.js';

/** The asset interface's own problem codes (decisions §1, §6), with status and title. */
export const V2_PROBLEMS = {
  asset_read_only: { status: 403, title: 'Asset is read-only' },
  revision_conflict: { status: 409, title: 'Revision conflict' },
  state_conflict: { status: 409, title: 'State move not allowed' },
  not_in_trash: { status: 409, title: 'Asset is not in the trash' },
  request_key_reused: { status: 409, title: 'Request key reused' },
  request_in_progress: { status: 409, title: 'Request in progress' },
  content_erased: { status: 410, title: 'Content erased' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  invalid_files: { status: 422, title: 'Invalid files' },
  upload_lost: { status: 503, title: 'Upload lost' },
} as const satisfies ProblemCatalog;

export type V2ProblemCode = keyof typeof V2_PROBLEMS;

export const v2ProblemOf = defineProblems(V2_PROBLEMS);

/** 404: absent, or another account's (they answer alike, so neither is told from the other). */
export const notFound = (detail: string) => problemOf('not_found', { detail });

export const assetNotFound = () => notFound('No such asset.');

/** 503: a streamed upload's bytes, deleted as unused before the request could record them. */
export const uploadLost = () =>
  v2ProblemOf('upload_lost', {
    detail:
      'An erase or expiry deleted these bytes as unused while they were being uploaded; send them again.',
  });

/** 409 with `current_revision`: a write based on a revision that is no longer the current one. */
export function revisionConflict(currentRevision: number) {
  return v2ProblemOf('revision_conflict', {
    detail: `The asset is at revision ${currentRevision}; send that as base_revision.`,
    extras: { current_revision: currentRevision },
  });
}

/** The code and detail of a refusal (of any catalog); undefined for anything else. */
export function refusalOf(error: unknown): { code: string; detail: string } | undefined {
  return error instanceof HttpProblem ? { code: error.code, detail: error.detail } : undefined;
}

/**
 * A refusal as the answer a request key keeps: the caller's own fault (below 500), decided before
 * anything was written. Null for anything else (a failure of the service's, which frees the key).
 */
export function refusalAnswer(error: unknown): Answer | null {
  if (!(error instanceof HttpProblem) || error.status >= 500) return null;
  return { status: error.status, headers: error.headers, body: error.toBody() };
}
