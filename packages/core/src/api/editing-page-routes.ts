import * as v1 from './v1.js';
import { PageParams, PageRevisionParams } from './editing-inputs.js';
import {
  busy,
  checkFailure,
  lockRequired,
  pageNotFound,
  refusals,
  stale,
  unusable,
  workFailed,
  writeResponses,
} from './editing-answers.js';
import { OPERATION_REFUSALS } from './problems.js';
import { editingPaths } from './paths.js';
import { route } from './route.js';

/** Undo or redo one operation of the draft: the same operation both ways. */
const draftStep = (direction: 'undo' | 'redo') =>
  route({
    ...editingPaths[direction === 'undo' ? 'undoDraft' : 'redoDraft'],
    summary: `${direction === 'undo' ? 'Undo' : 'Redo'} one operation of the draft (no body)`,
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    requestBody: {
      contentType: 'application/json',
      required: false,
      description: 'None, or `{}`',
    },
    responses: writeResponses({
      200: { description: 'Answered like an operation', schema: v1.OperationAnswer },
      409: refusals(lockRequired, { code: `nothing_to_${direction}` }, unusable),
      503: refusals(workFailed),
    }),
  });

/** The editing flow (drafts, operations, save) and the read-only views of a page. */
export const pageRoutes = {
  openDraft: route({
    ...editingPaths.openDraft,
    summary: 'Open the caller’s draft of the page (or return the open one)',
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    responses: writeResponses({
      200: { description: 'The draft with its newest token', schema: v1.DraftAnswer },
      409: refusals(lockRequired, unusable),
      422: {
        description: 'The page cannot be edited as a draft (`too_deep`, `no_body`; `errors`)',
        codes: ['too_deep', 'no_body'],
      },
      503: refusals(workFailed),
    }),
  }),
  discardDraft: route({
    ...editingPaths.discardDraft,
    summary: 'Discard the caller’s draft of the page',
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    responses: writeResponses({
      204: { description: 'Discarded (or there was none)' },
      409: refusals(lockRequired),
    }),
  }),
  draftLog: route({
    ...editingPaths.draftLog,
    summary: 'The operations in effect of the caller’s open draft, to apply again elsewhere',
    description:
      'The operations applied and not undone, oldest first, and the revision the draft is ' +
      'based on: what a stale draft needs to be applied again on a newer revision.',
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    responses: writeResponses({
      200: { description: 'The draft’s operations in effect', schema: v1.DraftLogAnswer },
      404: {
        description: 'No such page, or the caller has no open draft of it (`no_draft`)',
        codes: ['not_found', 'no_draft'],
      },
      409: refusals(lockRequired),
    }),
  }),
  applyOperation: route({
    ...editingPaths.applyOperation,
    summary: 'Apply one operation to the draft (not checked; checks run at save)',
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    body: v1.OperationRequest,
    responses: writeResponses({
      200: { description: 'The new draft token and what changed', schema: v1.OperationAnswer },
      409: refusals(lockRequired, stale, unusable),
      422: {
        description: 'Invalid request body, or the operation is refused; `errors` says why',
        codes: ['validation_failed', ...OPERATION_REFUSALS],
      },
      503: refusals(workFailed),
    }),
  }),
  undoDraft: draftStep('undo'),
  redoDraft: draftStep('redo'),
  save: route({
    ...editingPaths.save,
    summary: 'Save the draft as a new revision (the checks must pass)',
    tags: ['Page editing'],
    editorClient: true,
    params: PageParams,
    body: v1.SaveRequest,
    responses: writeResponses({
      200: { description: 'The saved revision', schema: v1.Saved },
      409: refusals(
        lockRequired,
        stale,
        {
          code: 'revision_conflict',
          about: 'the page changed since the draft’s base (`current_revision`)',
        },
        { code: 'commit_id_reused', about: 'the commit_id already saved another page' },
        unusable,
      ),
      422: checkFailure,
      503: refusals(busy, workFailed),
    }),
  }),
  pageRevision: route({
    ...editingPaths.pageRevision,
    summary: 'The page’s HTML as saved at a revision (any member)',
    tags: ['History'],
    params: PageRevisionParams,
    responses: {
      200: { description: 'The page as saved at that revision', schema: v1.PageRevision },
      404: {
        description:
          'No such page, the caller is not a member, or the page had no file at that ' +
          'revision, or the revision does not exist (`no_revision`)',
        codes: ['not_found', 'no_revision'],
      },
    },
  }),
  pageEvents: route({
    ...editingPaths.pageEvents,
    summary: 'Live changes of the page: its lock, the holder’s draft, saves (server-sent events)',
    description: [
      'A `text/event-stream` for read-only views (any member; an API token or the screen’s session). Each event’s `data:` is one line of JSON:',
      [
        '- `lock` `{lock: Lock | null, left_unsaved?: {name}}`: on connect and whenever the lock changes (taken, renewed, released, expired); `left_unsaved` names a holder that let the lock go (or whose lock expired) with unsaved changes in a draft of the project, while the lock stays free;',
        '- `draft` `{sequence, base_revision, html, by: {name}}`: the lock holder’s draft of the page, on connect when there is one and whenever it changes (operation, undo, redo, save); when the holder discards it, the saved page (`sequence` 0, on the current revision);',
        '- `saved` `{revision}`: the project’s saved revision changed.',
      ].join('\n'),
      'A comment line comes every 15 seconds. Changes made through this process arrive at once, others within about a second. The stream ends when the server stops, the page’s project is deleted, or the caller loses access (checked every 15 seconds); connect again to resume (the first events tell the state).',
    ].join('\n\n'),
    tags: ['Page editing'],
    params: PageParams,
    responses: {
      200: {
        description: 'The event stream; each event is one of these',
        contentType: 'text/event-stream',
        schema: v1.PageEvent,
      },
      404: pageNotFound,
      429: {
        description:
          '`too_many_streams`: the account has its most streams open (see Retry-After); or too many requests',
        codes: ['too_many_streams'],
      },
      503: {
        description: '`stopping`: the server is stopping; connect again',
        codes: ['stopping'],
      },
    },
  }),
};
