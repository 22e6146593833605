// Answers and inputs that many operations of the asset interface share, described once.
import type { ResponseSpec } from './route.js';

const r = (description: string, ...codes: string[]): ResponseSpec => ({ description, codes });

/** The `Location` of a 201: the new asset, or the new revision (`?revision=N`). */
export const created = {
  asset: { Location: { description: 'URL of the new asset' } },
  revision: { Location: { description: 'URL of the new revision (`…/assets/{id}?revision=N`)' } },
};

/** A conflict of a write with the asset's state: its code and what it means. */
interface Conflict {
  code: string;
  about: string;
}

export const baseConflict: Conflict = {
  code: 'revision_conflict',
  about: 'base_revision is not the current revision (`current_revision`)',
};
export const stateConflict: Conflict = {
  code: 'state_conflict',
  about: 'the move is not allowed from the current `state` (`allowed_from`)',
};
export const notInTrash: Conflict = {
  code: 'not_in_trash',
  about: 'the asset is not in the trash (`state`)',
};

/** Every write's 409: a request_key reused, or still in use, beside its own conflicts. */
const conflict = (own: readonly Conflict[]) =>
  r(
    [
      ...own.map(({ code, about }) => `\`${code}\`: ${about}`),
      '`request_key_reused`: the request_key came with another request',
      '`request_in_progress`: the first request with this request_key still runs',
    ].join('; '),
    ...own.map((c) => c.code),
    'request_key_reused',
    'request_in_progress',
  );

/** The answers of one status that can each happen. */
export const either = (...answers: ResponseSpec[]): ResponseSpec => ({
  description: answers.map((a) => a.description).join('; or '),
  codes: answers.flatMap((a) => a.codes ?? []),
});

/** Error answers shared by the asset interface's operations, as documented in OpenAPI. */
export const responses = {
  403: r('The asset belongs to the service (system:svc) and cannot be written', 'asset_read_only'),
  404: r("No such asset, or another account's", 'not_found'),
  410: r("The revision's content was erased (content_erased)", 'content_erased'),
  413: r('The body or file is larger than allowed', 'body_too_large'),
  422: r('Invalid input: `errors` maps each field to its reasons', 'validation_failed'),
  /** 422 of a write whose files are inspected. */
  invalidFiles: r(
    'Invalid input: `errors` maps each field to its reasons; `invalid_files` also has the ' +
      'inspection’s `violations`',
    'validation_failed',
    'invalid_files',
  ),
  503: r(
    'upload_lost: an erase or expiry deleted the uploaded bytes as unused before they were ' +
      'recorded; send them again',
    'upload_lost',
  ),
  /** The files' inspection ran in a worker thread and could not finish. */
  workFailed: r('`work_failed`: the inspection could not finish; see Retry-After', 'work_failed'),
  /** Writes that create something new, with the conflicts of their own. */
  write(...own: Conflict[]): Record<number, ResponseSpec> {
    return { 400: r('The body is not JSON'), 409: conflict(own), 422: this[422] };
  },
  /** Writes on an existing asset, with the conflicts of their own. */
  assetWrite(...own: Conflict[]): Record<number, ResponseSpec> {
    return { ...this.write(...own), 403: this[403], 404: this[404] };
  },
};
