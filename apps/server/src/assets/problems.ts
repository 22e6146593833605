import { defineProblems } from '../http/problem.js';
import type { ProblemCatalog } from '../http/problem.js';

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
