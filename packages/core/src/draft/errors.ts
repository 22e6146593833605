/**
 * The draft engine's refusals: one catalog of stable codes (the server maps them to 409/422 and to
 * `errors[field]`), kept apart from the places that find the problems.
 */
export const draftErrorCodes = {
  invalid_operation: {
    message: 'The operation does not have the shape of any operation kind.',
  },
  unresolved_reference: {
    message: 'No element inside <body> answers to this reference.',
  },
  not_a_child: {
    message: '`before` must be a child element of `parent`.',
  },
  move_into_self: {
    message: 'An element cannot be moved into itself or into one of its descendants.',
  },
  body_not_allowed: {
    message:
      '<body> (@0) cannot be moved, removed, duplicated, replaced or used as `before`; it can be a parent, and its content can be swapped.',
  },
  not_a_container: {
    message:
      'This element cannot hold child elements (a void element, or raw text such as <script>).',
  },
  malformed_html: {
    message: 'The HTML fragment is malformed.',
  },
  nothing_to_undo: { message: 'There is no operation to undo.' },
  nothing_to_redo: { message: 'There is no undone operation to redo.' },
  no_body: { message: 'The document has no body (a frameset document).' },
  too_deep: {
    message:
      'The page nests elements more than 512 deep (the limit of the `pages` check); it was not read further.',
  },
  invalid_log: { message: 'The draft log does not replay onto this base document.' },
} as const;

export type DraftErrorCode = keyof typeof draftErrorCodes;

/** One refusal: a stable code, a human message, and the request field it concerns (or null). */
export interface DraftError {
  readonly code: DraftErrorCode;
  readonly message: string;
  readonly field: string | null;
}

/** Builds a refusal from the catalog; `detail` replaces the catalog text where it says more. */
export function draftError(
  code: DraftErrorCode,
  field: string | null,
  detail?: string,
): DraftError {
  return { code, message: detail ?? draftErrorCodes[code].message, field };
}

export type Refused = { readonly ok: false; readonly errors: readonly DraftError[] };

export function refused(...errors: DraftError[]): Refused {
  return { ok: false, errors };
}
