import type { DraftErrorCode } from '@galley/core';
import type { Failure } from '../../result.js';
import { failureText } from '../views.js';

/** The draft engine's refusals in a person's words (its own messages speak of fields and `@n`). */
const refusals: Record<DraftErrorCode, string> = {
  invalid_operation: 'That change is not one the editor can make.',
  unresolved_reference: 'That element is no longer on the page.',
  not_a_child: 'The place chosen is not inside that element.',
  move_into_self: 'An element cannot go inside itself.',
  body_not_allowed: 'The page body itself cannot be moved, removed or copied.',
  not_a_container: 'This element cannot hold other elements (an image, a line break, a script…).',
  malformed_html: 'The HTML is not well formed: check that every tag is closed.',
  nothing_to_undo: 'There is nothing to undo.',
  nothing_to_redo: 'There is nothing to redo.',
  no_body: 'This page has no body to edit (it is a frameset).',
  too_deep: 'This page nests elements too deeply to be edited.',
  invalid_log: 'This draft could not be read back.',
};

/** What went wrong, for a person: never a validator's wording, nor a field path. */
export function sayFailure(failure: Failure): string {
  if (failure.kind === 'refused') {
    const first = failure.errors[0];
    return first ? refusals[first.code] : 'That change could not be made.';
  }
  if (failure.kind === 'http' && failure.status === 409) {
    if (failure.problem.code === 'stale_draft_token')
      return 'This draft was changed elsewhere (another tab or client) meanwhile; the editor now shows it as it is. Make the change again if it is still needed.';
    if (failure.problem.code === 'revision_conflict')
      return 'Someone saved this page meanwhile, so this draft cannot be saved as it is.';
  }
  if (failure.kind === 'http' && failure.status === 422 && failure.problem.errors)
    return `The service refused the change: ${failure.problem.detail ?? failure.problem.title}`;
  return failureText(failure);
}

/** How an element is named to a person: its tag, id and first class (`<p#intro.lead>`). */
export function elementName(tag: string, id: string | null, classes: readonly string[]): string {
  return `<${tag}${id === null ? '' : `#${id}`}${classes.length ? `.${classes[0]}` : ''}>`;
}
