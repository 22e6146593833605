import * as v1 from './v1.js';
import { PageQuery } from './common.js';
import {
  ConfirmationParams,
  MemberParams,
  ProjectParams,
  VersionParams,
} from './editing-inputs.js';
import {
  busy,
  checkFailure,
  conditional,
  notFound,
  notModified,
  ownerOnly,
  refusals,
  workFailed,
  writeResponses,
  zipResponse,
  zipUploadBody,
} from './editing-answers.js';
import { editingPaths } from './paths.js';
import { route } from './route.js';

const zipTooLarge = { description: 'The ZIP is too large', codes: ['body_too_large'] };

/** The editing interface's operations on projects: folders, members, the lock, history, versions. */
export const projectRoutes = {
  listProjects: route({
    ...editingPaths.listProjects,
    summary: 'Projects the caller can open, newest first',
    tags: ['Projects'],
    query: PageQuery,
    responses: { 200: { description: 'A page of projects', schema: v1.ProjectList } },
  }),
  createProject: route({
    ...editingPaths.createProject,
    summary: 'Open a project folder (or a plain site) as a new project',
    tags: ['Projects'],
    editorClient: true,
    requestBody: zipUploadBody,
    responses: {
      201: {
        description: 'The new project; `site` when a plain site was converted',
        schema: v1.CreatedProject,
        headers: { Location: { description: 'URL of the new project' } },
      },
      413: zipTooLarge,
      422: checkFailure,
      503: refusals(workFailed),
    },
  }),
  getProject: route({
    ...editingPaths.getProject,
    summary: 'Read a project',
    tags: ['Projects'],
    params: ProjectParams,
    responses: { 200: { description: 'The project', schema: v1.Project }, 404: notFound },
  }),
  renameProject: route({
    ...editingPaths.renameProject,
    summary: 'Rename a project (a change of project.json, recorded in history)',
    tags: ['Projects'],
    editorClient: true,
    params: ProjectParams,
    body: v1.RenameProject,
    responses: writeResponses({
      200: { description: 'The project', schema: v1.Project },
      503: refusals(busy),
    }),
  }),
  deleteProject: route({
    ...editingPaths.deleteProject,
    summary: 'Delete a project and all its data (owner only)',
    tags: ['Projects'],
    editorClient: true,
    params: ProjectParams,
    responses: writeResponses({ 204: { description: 'Deleted' }, 403: ownerOnly }),
  }),
  downloadFolder: route({
    ...editingPaths.downloadFolder,
    summary: 'The current saved folder as a deterministic ZIP',
    tags: ['Folders'],
    params: ProjectParams,
    ...conditional,
    responses: { 200: zipResponse('The folder'), 304: notModified, 404: notFound },
  }),
  downloadVersion: route({
    ...editingPaths.downloadVersion,
    summary: 'The exact ZIP bytes of a confirmed version',
    tags: ['Folders'],
    params: VersionParams,
    ...conditional,
    responses: { 200: zipResponse('The confirmed ZIP'), 304: notModified, 404: notFound },
  }),
  replaceFolder: route({
    ...editingPaths.replaceFolder,
    summary: 'Replace the contents with a folder (one history entry, kind `folder`)',
    tags: ['Folders'],
    editorClient: true,
    params: ProjectParams,
    requestBody: zipUploadBody,
    responses: writeResponses({
      200: { description: 'The project; `site` for a plain site', schema: v1.CreatedProject },
      413: zipTooLarge,
      422: checkFailure,
      503: refusals(busy, workFailed),
    }),
  }),
  listPages: route({
    ...editingPaths.listPages,
    summary: 'Pages of the current revision, in project.json order, with unsaved drafts',
    description:
      '`unsaved_draft` names the most recently changed open draft of the page that has an ' +
      'operation in effect (its undo stack is not empty): by whom, on which revision, changed ' +
      'when; null when there is none.',
    tags: ['Folders'],
    params: ProjectParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of pages', schema: v1.PageList }, 404: notFound },
  }),
  listMembers: route({
    ...editingPaths.listMembers,
    summary: 'Members with their roles, in account-number order',
    tags: ['Members'],
    params: ProjectParams,
    query: PageQuery,
    responses: {
      200: { description: 'A page of members', schema: v1.MemberList },
      404: notFound,
    },
  }),
  putMember: route({
    ...editingPaths.putMember,
    summary: 'Make an existing account a member, or change its role (owner only)',
    tags: ['Members'],
    editorClient: true,
    params: ProjectParams,
    body: v1.PutMember,
    responses: writeResponses({
      200: { description: 'The members', schema: v1.Members },
      403: ownerOnly,
      422: {
        description:
          'Invalid request body (`errors`), `unknown_account` (no account has the e-mail), or `last_owner` (the project keeps an owner)',
        codes: ['validation_failed', 'unknown_account', 'last_owner'],
      },
    }),
  }),
  removeMember: route({
    ...editingPaths.removeMember,
    summary: 'Remove a member (an owner: anyone; others: only themselves)',
    tags: ['Members'],
    editorClient: true,
    params: MemberParams,
    responses: writeResponses({
      200: {
        description: 'The members; null when the caller removed itself',
        schema: v1.Members,
      },
      403: { description: 'Only an owner may remove another member', codes: ['owner_required'] },
      404: {
        description: 'No such project or member, or the caller is not a member',
        codes: ['not_found'],
      },
      422: { description: '`last_owner`: the project keeps an owner', codes: ['last_owner'] },
    }),
  }),
  getLock: route({
    ...editingPaths.getLock,
    summary: 'The lock in force (who is editing, since when), or null (any member)',
    tags: ['Page editing'],
    params: ProjectParams,
    responses: {
      200: { description: 'The lock, or `null` when none is in force', schema: v1.LockState },
      404: notFound,
    },
  }),
  takeLock: route({
    ...editingPaths.takeLock,
    summary: 'Take or renew the lock (renew within 60 seconds to keep it)',
    tags: ['Page editing'],
    editorClient: true,
    params: ProjectParams,
    body: v1.PutLock,
    responses: writeResponses({ 200: { description: 'The lock', schema: v1.LockAnswer } }),
  }),
  releaseLock: route({
    ...editingPaths.releaseLock,
    summary: 'Release the lock (by its holder)',
    tags: ['Page editing'],
    editorClient: true,
    params: ProjectParams,
    responses: writeResponses({ 204: { description: 'Released (or there was none)' } }),
  }),
  history: route({
    ...editingPaths.history,
    summary: 'History entries, newest first, and whether undo and redo are possible',
    tags: ['History'],
    params: ProjectParams,
    query: PageQuery,
    responses: { 200: { description: 'The history', schema: v1.History }, 404: notFound },
  }),
  moveHistory: route({
    ...editingPaths.moveHistory,
    summary: 'Undo or redo a saved change (a new revision restoring a state)',
    description: '`revision` must be the current revision, else 409 `revision_conflict`.',
    tags: ['History'],
    editorClient: true,
    params: ProjectParams,
    body: v1.HistoryMove,
    responses: writeResponses({
      200: { description: 'The project at its new revision', schema: v1.Project },
      409: {
        description: '`revision_conflict` (with `current_revision`), `nothing_to_undo`/`redo`',
        codes: ['revision_conflict', 'nothing_to_undo', 'nothing_to_redo'],
      },
    }),
  }),
  latestConfirmation: route({
    ...editingPaths.latestConfirmation,
    summary: 'The latest confirmed version (404 when none exists yet)',
    tags: ['Confirmed versions'],
    params: ProjectParams,
    responses: {
      200: { description: 'The latest', schema: v1.Confirmation },
      404: {
        description: `${notFound.description}, or nothing is confirmed yet (\`no_confirmation\`)`,
        codes: ['not_found', 'no_confirmation'],
      },
    },
  }),
  getConfirmation: route({
    ...editingPaths.getConfirmation,
    summary: 'One confirmed version',
    tags: ['Confirmed versions'],
    params: ConfirmationParams,
    responses: { 200: { description: 'The version', schema: v1.Confirmation }, 404: notFound },
  }),
  listConfirmations: route({
    ...editingPaths.listConfirmations,
    summary: 'Confirmed versions, newest first',
    tags: ['Confirmed versions'],
    params: ProjectParams,
    query: PageQuery,
    responses: {
      200: { description: 'A page of versions', schema: v1.ConfirmationList },
      404: notFound,
    },
  }),
  confirm: route({
    ...editingPaths.confirm,
    summary: 'Confirm the current saved version (a person on the screen; a token gets 403)',
    tags: ['Confirmed versions'],
    editorClient: true,
    params: ProjectParams,
    requestBody: {
      contentType: 'application/json',
      schema: v1.Confirm,
      required: false,
      description: '`{note?}`; may be left out',
    },
    responses: writeResponses({
      201: {
        description: 'The new confirmed version',
        schema: v1.Confirmation,
        headers: { Location: { description: 'URL of the confirmation' } },
      },
      403: {
        description: 'A viewer, or an API token (`confirmation_requires_person`)',
        codes: ['forbidden', 'confirmation_requires_person'],
      },
      423: {
        description: '`lock_held`: another client holds the lock (none is needed)',
        codes: ['lock_held'],
      },
      503: refusals(busy),
    }),
  }),
};
