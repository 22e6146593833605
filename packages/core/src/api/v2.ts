import { z } from 'zod';
import { MediumRef } from '../media/catalog.js';
import { Sha256, Timestamp, Uuid } from './common.js';

export const AssetKind = z.enum(['image', 'font', 'production', 'data']);
export type AssetKind = z.infer<typeof AssetKind>;
export const AssetState = z.enum(['active', 'archived', 'deleted']);
export type AssetState = z.infer<typeof AssetState>;
export const Verdict = z.enum(['passed', 'failed', 'unchecked']);

const FilePath = z.string().min(1).max(1024);
export const SchemaUri = z.string().regex(/^svc:\/\/schemas\/[a-z0-9-]+\/[0-9][0-9.]*$/);

/** A file specification in writes: exactly one of json (+schema), text or blob. */
export const FileSpec = z.union([
  z.strictObject({ path: FilePath, json: z.json(), schema: SchemaUri.optional() }),
  z.strictObject({ path: FilePath, text: z.string() }),
  z.strictObject({ path: FilePath, blob: Sha256 }),
]);
export type FileSpec = z.infer<typeof FileSpec>;

export const AssetFile = z.object({
  path: z.string(),
  media_type: z.string(),
  size: z.number().int(),
  sha256: Sha256,
});

export const JudgedMedium = z.object({
  id: z.string(),
  version: z.number().int(),
  label: z.string(),
  type: z.string(),
  basis: z.enum(['declared', 'canvas']),
});
export const AssetViolation = z.object({
  code: z.string(),
  path: z.string().nullable(),
  message: z.string(),
  expected: z.unknown(),
  actual: z.unknown(),
});
export const InspectionCheck = z.object({
  standard: z.string(),
  contract: z.string(),
  version: z.string(),
  target: z.string().nullable(),
  verdict: Verdict,
  violations: z.array(AssetViolation),
  details: z.record(z.string(), z.unknown()),
});
export const Inspection = z.object({
  verdict: Verdict,
  media: z.array(JudgedMedium),
  checks: z.array(InspectionCheck),
  contracts: z.record(z.string(), z.string()),
  inspected_at: Timestamp,
});
export type Inspection = z.infer<typeof Inspection>;
export const InspectionSummary = Inspection.pick({ verdict: true, media: true });

export const Revision = z.object({
  number: z.number().int(),
  ref: z.string(),
  files: z.array(AssetFile),
  inspection: Inspection,
  created_at: Timestamp,
  erased: z.boolean(),
});
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
export const AssetEnvelope = z.object({ asset: Asset });

export const AssetListItem = Asset.pick({
  id: true,
  kind: true,
  title: true,
  state: true,
  owner: true,
  updated_at: true,
}).extend({
  revision: z.object({ number: z.number().int(), ref: z.string(), inspection: InspectionSummary }),
});
export const AssetList = z.object({
  assets: z.array(AssetListItem),
  next_page_url: z.string().nullable(),
});
export const RevisionList = z.object({
  revisions: z.array(
    z.object({
      number: z.number().int(),
      ref: z.string(),
      created_at: Timestamp,
      erased: z.boolean(),
      inspection: InspectionSummary,
    }),
  ),
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
  q: z.string().optional(),
  kind: KindList.optional(),
  medium: z.string().optional(),
  state: AssetState.default('active'),
  verdict: Verdict.optional(),
  sort: z.enum(['updated', 'title']).default('updated'),
  page: z.string().min(1).optional(),
  per_page: z.coerce.number().int().min(1).max(200).default(50),
});

const RequestKey = Uuid;
export const MediaContract = z.strictObject({ version: z.literal('1.0') });
export const CreateAsset = z.union([
  z.strictObject({
    request_key: RequestKey,
    kind: z.literal('production'),
    title: z.string().trim().min(1).max(200),
    medium: MediumRef.strict(),
    media_contract: MediaContract,
    files: z.array(FileSpec).max(5000).default([]),
  }),
  z.strictObject({
    request_key: RequestKey,
    kind: z.enum(['image', 'font', 'data']),
    title: z.string().trim().min(1).max(200),
    files: z.array(FileSpec).min(1).max(5000),
  }),
]);
export type CreateAsset = z.infer<typeof CreateAsset>;
export const PatchAsset = z.strictObject({
  request_key: RequestKey,
  title: z.string().trim().min(1).max(200),
});
export const NewRevision = z.strictObject({
  request_key: RequestKey,
  base_revision: z.number().int().min(1),
  put: z.array(FileSpec).max(5000).default([]),
  remove: z.array(FilePath).max(5000).default([]),
});
export const DuplicateAsset = z.strictObject({
  request_key: RequestKey,
  title: z.string().trim().min(1).max(200),
  revision: z.number().int().min(1).optional(),
});
export const CopyAsset = z.strictObject({
  request_key: RequestKey,
  base_revision: z.number().int().min(1),
  source: z.strictObject({
    asset: z.string().min(1),
    revision: z.number().int().min(1).optional(),
  }),
  to: z.string().regex(/^references\/([a-z0-9_-][a-z0-9._-]*\/)*$/, 'a folder under references/ ending in /'),
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
