import * as v2 from './v2.js';
import { AssetParams, FileParams, RevisionParams, UploadForm } from './v2.js';
import {
  baseConflict,
  created,
  either,
  notInTrash,
  responses,
  stateConflict,
} from './asset-answers.js';
import { binary } from './common.js';
import { assetPaths } from './paths.js';
import { route } from './route.js';

/** The asset interface's own operations (events, webhooks and schemas are in `routes.ts`). */
export const assetOperations = {
  listAssets: route({
    ...assetPaths.listAssets,
    summary: 'List assets',
    description: "The caller's assets and the service's fonts, one page at a time.",
    query: v2.AssetListQuery,
    responses: {
      200: { description: 'A page of assets', schema: v2.AssetList },
      422: responses[422],
    },
  }),
  createAsset: route({
    ...assetPaths.createAsset,
    summary: 'Register an asset',
    description:
      'JSON with file specifications, or (image and font) multipart/form-data with the fields ' +
      'request_key, kind, title (UTF-8 text) and the file part `file`, whose path is made from ' +
      'its file name: the base name, accents folded, lower case, other characters `-` ' +
      '(`Café Logo.PNG` → `cafe-logo.png`). Productions take medium and media_contract.',
    body: v2.CreateAsset,
    bodyVerbatim: ['files.*.json'],
    requestBody: {
      contentType: 'multipart/form-data',
      description: 'JSON file specifications, or an image or font as the multipart part `file`',
      schema: UploadForm,
    },
    responses: {
      201: {
        description: 'The asset with revision 1 and its inspection',
        schema: v2.AssetEnvelope,
        headers: created.asset,
      },
      ...responses.write(),
      413: responses[413],
      422: responses.invalidFiles,
      503: either(responses[503], responses.workFailed),
    },
  }),
  getAsset: route({
    ...assetPaths.getAsset,
    summary: 'Read an asset',
    params: AssetParams,
    query: v2.AssetQuery,
    responses: {
      200: { description: 'The current (or given) revision', schema: v2.AssetEnvelope },
      404: responses[404],
      422: responses[422],
    },
  }),
  renameAsset: route({
    ...assetPaths.renameAsset,
    summary: 'Rename an asset',
    description: 'Changes the title only; the revision number does not increase.',
    params: AssetParams,
    body: v2.PatchAsset,
    responses: {
      200: { description: 'The renamed asset', schema: v2.AssetEnvelope },
      ...responses.assetWrite(),
    },
  }),
  listRevisions: route({
    ...assetPaths.listRevisions,
    summary: "List an asset's revisions",
    description: 'Newest first, each with the verdict and media of its inspection.',
    params: AssetParams,
    query: v2.RevisionListQuery,
    responses: {
      200: { description: 'A page of revisions', schema: v2.RevisionList },
      404: responses[404],
      422: responses[422],
    },
  }),
  createRevision: route({
    ...assetPaths.createRevision,
    summary: 'Create a revision',
    description: 'Puts and removes files on base_revision, then inspects the new revision.',
    params: AssetParams,
    body: v2.NewRevision,
    bodyVerbatim: ['put.*.json'],
    responses: {
      201: {
        description: 'The new revision and its inspection',
        schema: v2.AssetEnvelope,
        headers: created.revision,
      },
      ...responses.assetWrite(baseConflict),
      410: responses[410],
      422: responses.invalidFiles,
      503: responses.workFailed,
    },
  }),
  eraseContent: route({
    ...assetPaths.eraseContent,
    summary: "Erase a revision's content",
    description:
      'The revision stays listed; its files answer 410. Bytes no other revision uses are ' +
      "deleted, and the caller's own uploads (blobs) of these bytes go too: erasing means the " +
      'bytes are gone, so a later `{blob}` naming them answers 422.',
    params: RevisionParams,
    body: v2.EraseContent,
    responses: {
      200: { description: 'The erased revision', schema: v2.AssetEnvelope },
      ...responses.assetWrite(),
    },
  }),
  getFile: route({
    ...assetPaths.getFile,
    summary: 'Read a file of a revision',
    description:
      'The path keeps its slashes (`/files/canvas/main.png`). Supports a single `Range` ' +
      '(206, or 416 when it cannot be met); `download=1` answers as an attachment.',
    params: FileParams,
    query: v2.FileQuery,
    requestHeaders: {
      Range: 'One byte range, `bytes=start-end`, `bytes=start-` or `bytes=-suffix`',
      'If-Range': 'The ETag the range belongs to: another answers the whole file',
      'If-None-Match': 'ETags (or `*`): 304 when the file has one of them',
    },
    responses: {
      200: { description: 'The file, as its own media type', contentType: '*/*' },
      206: { description: 'The requested range, as the file’s media type', contentType: '*/*' },
      304: { description: 'Not modified: `If-None-Match` named the file’s ETag' },
      404: responses[404],
      410: responses[410],
      416: { description: 'The range cannot be met', codes: ['range_not_satisfiable'] },
    },
  }),
  duplicate: route({
    ...assetPaths.duplicate,
    summary: 'Duplicate an asset',
    description:
      'A complete copy of one revision (the current by default) as a new asset of the caller.',
    params: AssetParams,
    body: v2.DuplicateAsset,
    responses: {
      201: { description: 'The new asset', schema: v2.AssetEnvelope, headers: created.asset },
      ...responses.write(),
      404: responses[404],
      410: responses[410],
      503: responses.workFailed,
    },
  }),
  copyInto: route({
    ...assetPaths.copyInto,
    summary: "Copy another asset into a production's references/",
    description:
      'The source files keep their paths below `to` (a folder under references/ ending in /).',
    params: AssetParams,
    body: v2.CopyAsset,
    responses: {
      201: {
        description: 'The production with the new revision',
        schema: v2.AssetEnvelope,
        headers: created.revision,
      },
      ...responses.assetWrite(baseConflict),
      410: responses[410],
      422: responses.invalidFiles,
      503: responses.workFailed,
    },
  }),
  setState: route({
    ...assetPaths.setState,
    summary: 'Archive, trash or restore an asset',
    description:
      'Archive from active; trash (deleted) from active or archived; restore (active) from ' +
      'archived or deleted. Moves sent at once are decided one after another on the current ' +
      'state; any other move is 409 state_conflict naming the current state.',
    params: AssetParams,
    body: v2.PutState,
    responses: {
      200: { description: 'The asset in its new state', schema: v2.AssetEnvelope },
      ...responses.assetWrite(stateConflict),
    },
  }),
  deleteAsset: route({
    ...assetPaths.deleteAsset,
    summary: 'Delete a trashed asset for good',
    description:
      'Only from the trash (else 409 not_in_trash); every revision goes, and bytes nothing else uses.',
    params: AssetParams,
    body: v2.DeleteAsset,
    responses: { 204: { description: 'Deleted' }, ...responses.assetWrite(notInTrash) },
  }),
  uploadBlob: route({
    ...assetPaths.uploadBlob,
    summary: 'Upload bytes for later use as {blob: sha256}',
    description:
      'The raw body is streamed to storage and hashed on the way. Kept 1 day. Content ' +
      'addressed, so resending the same bytes is safe: 200 when the caller already holds them ' +
      '(of uploads of new bytes sent at once, exactly one is 201).',
    requestBody: {
      contentType: 'application/octet-stream',
      description: 'The bytes, as they are: any media type, stored unchanged',
      schema: binary('application/octet-stream'),
    },
    responses: {
      201: { description: 'Stored', schema: v2.Blob },
      200: { description: 'The caller already held these bytes', schema: v2.Blob },
      413: responses[413],
      503: responses[503],
    },
  }),
  listSchemas: route({
    ...assetPaths.listSchemas,
    summary: 'List the JSON Schemas of the service',
    responses: { 200: { description: 'Every schema', schema: v2.SchemaList } },
  }),
};
