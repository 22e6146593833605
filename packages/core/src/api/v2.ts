// Bodies of the asset interface (/api/v2): asset-api-v2.md as settled by decisions §6 and §8.
// The inspection shapes are the inspection module's own (one schema, re-exported here).
import { z } from 'zod';
import { mediaCatalog } from '../media/catalog.js';
import { MediumRef } from '../media/schema.js';
import { CheckOutcome } from '../report/violation.js';
import { AssetKind, Inspection, InspectionSummary } from '../inspect/inspection.js';
import {
  PageQuery,
  PerPage,
  Sha256,
  StoredNumber,
  StoredNumberText,
  Timestamp,
  Uuid,
  binary,
} from './common.js';

export {
  AssetKind,
  Inspection,
  InspectionCheck,
  InspectionSummary,
  InspectionViolation,
  JudgedMedium,
} from '../inspect/inspection.js';

export const AssetState = z.enum(['active', 'archived', 'deleted']);
export type AssetState = z.infer<typeof AssetState>;
export const Verdict = CheckOutcome;

/** Owner of an asset: `user:<account_number>`, or `system:svc` for the service's fonts. */
export const Owner = z.string().regex(/^(user:\d+|system:svc)$/);
/** Opaque asset identifiers (decisions §1). */
export const AssetId = z.string().regex(/^ast_[a-z0-9_]{1,64}$/);

/** The naming rules proper are the inspection's (`names.*`); this only bounds the value. */
const FilePath = z.string().min(1).max(1024);
export const SchemaUri = z.string().regex(/^svc:\/\/schemas\/[a-z0-9-]+\/[0-9][0-9.]*$/);
const RequestKey = Uuid;
const Title = z.string().trim().min(1).max(200);

/**
 * A file specification in writes: exactly one of `json` (optionally with `schema`), `text` or
 * `blob`. Checked as one object so a wrong mix gets a reason naming the fields, not "no match".
 */
export const FileSpec = z
  .strictObject({
    path: FilePath,
    /** Any JSON value (the body was parsed as JSON); unknown keeps the OpenAPI schema flat. */
    json: z.unknown().optional(),
    schema: SchemaUri.optional(),
    text: z.string().optional(),
    blob: Sha256.optional(),
  })
  .superRefine((spec, ctx) => {
    // JSON cannot carry undefined: a member that is undefined was not sent.
    const shapes = (['json', 'text', 'blob'] as const).filter((key) => spec[key] !== undefined);
    if (shapes.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `give exactly one of json, text or blob (got ${shapes.join(', ') || 'none'})`,
      });
    if (spec.schema !== undefined && spec.json === undefined)
      ctx.addIssue({ code: 'custom', path: ['schema'], message: 'schema goes with json only' });
  })
  .transform((spec): FileSpecShape => {
    if (spec.text !== undefined) return { path: spec.path, text: spec.text };
    if (spec.blob !== undefined) return { path: spec.path, blob: spec.blob };
    return {
      path: spec.path,
      json: spec.json,
      ...(spec.schema !== undefined ? { schema: spec.schema } : {}),
    };
  });
/**
 * The file specification as the documents give it: exactly one of its three forms (`oneOf`), so
 * generated clients type it as a union. `FileSpec` reads the very same input as one object.
 */
export const FileSpecChoices = z.xor([
  z.strictObject({ path: FilePath, json: z.unknown(), schema: SchemaUri.optional() }),
  z.strictObject({ path: FilePath, text: z.string() }),
  z.strictObject({ path: FilePath, blob: Sha256 }),
]);
export type FileSpecShape =
  | { path: string; json: unknown; schema?: string }
  | { path: string; text: string }
  | { path: string; blob: string };
export type FileSpec = z.output<typeof FileSpec>;

export const AssetFile = z.object({
  path: z.string(),
  media_type: z.string(),
  size: z.number().int(),
  sha256: Sha256,
});
export type AssetFile = z.infer<typeof AssetFile>;

export const Revision = z.object({
  number: z.number().int(),
  ref: z.string(),
  files: z.array(AssetFile),
  inspection: Inspection,
  created_at: Timestamp,
  /** True once the revision's content was erased: its files then answer 410. */
  erased: z.boolean(),
});
export type Revision = z.infer<typeof Revision>;

export const Asset = z.object({
  id: z.string(),
  kind: AssetKind,
  title: z.string(),
  state: AssetState,
  owner: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  revision: Revision,
});
export type Asset = z.infer<typeof Asset>;
/** Every single-asset answer (decisions §8). */
export const AssetEnvelope = z.object({ asset: Asset });

const RevisionSummary = z.object({
  number: z.number().int(),
  ref: z.string(),
  inspection: InspectionSummary,
});
export const AssetListItem = Asset.pick({
  id: true,
  kind: true,
  title: true,
  state: true,
  owner: true,
  updated_at: true,
}).extend({ revision: RevisionSummary });
export type AssetListItem = z.infer<typeof AssetListItem>;
export const AssetList = z.object({
  assets: z.array(AssetListItem),
  next_page_url: z.string().nullable(),
});
export const RevisionListItem = RevisionSummary.extend({
  created_at: Timestamp,
  erased: z.boolean(),
});
export type RevisionListItem = z.infer<typeof RevisionListItem>;
export const RevisionList = z.object({
  revisions: z.array(RevisionListItem),
  next_page_url: z.string().nullable(),
});

/** `kind=image,font`: a comma-separated list of kinds. */
const KindList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(AssetKind).min(1));

export const AssetListQuery = z.strictObject({
  q: z.string().max(200).optional(),
  kind: KindList.optional(),
  /** A medium id of the catalog (`banner`), matched against the inspection's judged media. */
  medium: z.enum(mediaCatalog.map((medium) => medium.id) as [string, ...string[]]).optional(),
  state: AssetState.default('active'),
  verdict: Verdict.optional(),
  sort: z.enum(['updated', 'title']).default('updated'),
  page: z.string().min(1).max(512).optional(),
  per_page: PerPage,
});
export const RevisionListQuery = PageQuery;
/** `GET /assets/{id}?revision=n`. */
export const AssetQuery = z.strictObject({ revision: StoredNumberText.optional() });
/** `GET /assets/{id}/files/{path}?revision=n&download=1`. */
export const FileQuery = z.strictObject({
  revision: StoredNumberText.optional(),
  download: z.enum(['0', '1']).optional(),
});

export const MediaContract = z.strictObject({ version: z.literal('1.0') });
export const CreateAsset = z.discriminatedUnion('kind', [
  z.strictObject({
    request_key: RequestKey,
    kind: z.literal('production'),
    title: Title,
    medium: MediumRef.strict(),
    media_contract: MediaContract,
    /** More files under canvas/ and references/; production.json is made from the fields. */
    files: z.array(FileSpec).max(5000).default([]),
  }),
  z.strictObject({
    request_key: RequestKey,
    kind: z.enum(['image', 'font', 'data']),
    title: Title,
    files: z.array(FileSpec).min(1).max(5000),
  }),
]);
export type CreateAsset = z.infer<typeof CreateAsset>;
/** Multipart `POST /assets` (single-file kinds): the text fields beside the `file` part. */
export const UploadAssetFields = z.strictObject({
  request_key: RequestKey,
  kind: z.enum(['image', 'font']),
  title: Title,
});
export const PatchAsset = z.strictObject({ request_key: RequestKey, title: Title });
export const NewRevision = z.strictObject({
  request_key: RequestKey,
  base_revision: StoredNumber,
  put: z.array(FileSpec).max(5000).default([]),
  remove: z.array(FilePath).max(5000).default([]),
});
export const DuplicateAsset = z.strictObject({
  request_key: RequestKey,
  title: Title,
  revision: StoredNumber.optional(),
});
export const CopyAsset = z.strictObject({
  request_key: RequestKey,
  base_revision: StoredNumber,
  source: z.strictObject({
    asset: z.string().min(1).max(100),
    revision: StoredNumber.optional(),
  }),
  /** A folder under `references/` ending in `/`; the source's files keep their paths below it. */
  to: z
    .string()
    .max(200)
    .regex(/^references\/([a-z0-9_-][a-z0-9._-]*\/)*$/, 'a folder under references/ ending in /'),
});
export const PutState = z.strictObject({ request_key: RequestKey, state: AssetState });
export const DeleteAsset = z.strictObject({ request_key: RequestKey });
export const EraseContent = z.strictObject({
  request_key: RequestKey,
  reason: z.string().max(2000).optional(),
});

export const Blob = z.object({ sha256: Sha256, size: z.number().int() });
export const SchemaList = z.object({
  schemas: z.array(
    z.object({ kind: z.string(), version: z.number().int(), uri: z.string(), title: z.string() }),
  ),
});

export const AssetParams = z.object({ id: AssetId });
export const RevisionParams = AssetParams.extend({ n: StoredNumberText });
/** Express gives a `*path` wildcard as its segments; the file path is them joined by `/`. */
export const FileParams = z.object({
  id: AssetId,
  path: z.preprocess(
    (value) => (Array.isArray(value) ? value.join('/') : value),
    z.string().min(1),
  ),
});
/** The multipart form of POST /assets, as documented: its fields, and the file itself. */
export const UploadForm = UploadAssetFields.extend({ file: binary('application/octet-stream') });
