// Answers that many operations of the editing interface share, described once.
import { binary } from './common.js';
import { FolderUploadForm } from './editing-inputs.js';
import type { ResponseSpec } from './route.js';

export const notFound = {
  description: 'No such project, or the caller is not a member',
  codes: ['not_found'],
};
export const pageNotFound = {
  description: 'No such page, or the caller is not a member',
  codes: ['not_found'],
};

/** A change of the saved folder that other processes' changes kept overtaking. */
export const busy = {
  code: 'project_busy',
  about: 'other changes of the project kept coming first; see Retry-After',
};
/** Work done in a worker thread (reading a ZIP, rebuilding a draft) that could not finish. */
export const workFailed = {
  code: 'work_failed',
  about: 'the server could not finish this request’s work; see Retry-After',
};

/** The refusals of an operation for owners only. */
export const ownerOnly = { description: 'Only an owner may do this', codes: ['owner_required'] };

/** 422 of a write whose result is checked: the report, or an input refused before any check. */
export const checkFailure: ResponseSpec = {
  description:
    'The checks fail (`checks`, `violations`, `contracts`), or the input is invalid ' +
    '(`validation_failed` with `errors`)',
  codes: ['folder_check_failed', 'validation_failed'],
};

/**
 * The refusals every project write can answer, plus its own answers (which say more); those of
 * its input (400, 413, 415, 422) come from what it reads.
 */
export const writeResponses = <const R extends Record<number, ResponseSpec>>(own: R) => ({
  403: { description: 'The caller’s role does not allow this', codes: ['forbidden'] },
  404: notFound,
  423: { description: 'Another client holds the lock (`lock`)', codes: ['lock_held'] },
  ...own,
});

/** The multipart upload of a project folder or a plain site. */
export const zipUploadBody = {
  contentType: 'multipart/form-data' as const,
  description:
    'File field `zip`: a project folder ZIP, or a plain site ZIP (converted). Text fields ' +
    '`index`, `drop_external` and `drop_missing` choose how a plain site is converted.',
  schema: FolderUploadForm,
};

/** A deterministic ZIP answered with its digest. */
export const zipResponse = (description: string) => ({
  description,
  contentType: 'application/zip',
  schema: binary('application/zip'),
  headers: {
    'X-Content-SHA256': { description: 'Lower-case hex SHA-256 of the ZIP' },
    ETag: { description: 'The same digest, quoted' },
  },
});

/** A conditional read of a ZIP: what the client already has need not come again. */
export const conditional = {
  requestHeaders: { 'If-None-Match': 'The ETag of a copy the caller has: 304 when it is this one' },
};
export const notModified = { description: 'Not modified: `If-None-Match` named this ZIP’s ETag' };

/** A refusal: its code, and what it means where that needs saying. */
interface Refusal {
  code: string;
  about?: string;
}

/** An error answer that is one of these refusals (of the editing flow, each where it can happen). */
export const refusals = (...refusals: Refusal[]) => ({
  description: refusals
    .map(({ code, about }) => (about ? `\`${code}\`: ${about}` : `\`${code}\``))
    .join('; '),
  codes: refusals.map((r) => r.code),
});
export const lockRequired = { code: 'lock_required', about: 'take the project’s lock first' };
export const stale = { code: 'stale_draft_token', about: 'send the newest draft token' };
export const unusable = {
  code: 'draft_unusable',
  about: 'a draft that can no longer be rebuilt (discard it)',
};
