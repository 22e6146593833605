import type { ResponseSpec } from '../../openapi/registry.js';

const r = (description: string): ResponseSpec => ({ description });

/** The `Location` of a 201: the new asset, or the new revision (`?revision=N`). */
export const created = {
  asset: { Location: { description: 'URL of the new asset' } },
  revision: { Location: { description: 'URL of the new revision (`…/assets/{id}?revision=N`)' } },
};

/** Error answers shared by the asset interface's operations, as documented in OpenAPI. */
export const responses = {
  403: r('The asset belongs to the service (system:svc) and cannot be written'),
  404: r("No such asset, or another account's"),
  409: r(
    'Conflict: base_revision not current (current_revision), disallowed state move, ' +
      'not in the trash, request_key reused or in progress',
  ),
  410: r("The revision's content was erased (content_erased)"),
  413: r('The body or file is larger than allowed'),
  422: r('Invalid input: `errors` maps each field to its reasons'),
  503: r(
    'upload_lost: an erase or expiry deleted the uploaded bytes as unused before they were ' +
      'recorded; send them again',
  ),
  /** Writes that create something new. */
  get write(): Record<number, ResponseSpec> {
    return { 400: r('The body is not JSON'), 409: this[409], 422: this[422] };
  },
  /** Writes on an existing asset. */
  get assetWrite(): Record<number, ResponseSpec> {
    return { ...this.write, 403: this[403], 404: this[404] };
  },
};
