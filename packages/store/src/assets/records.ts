// The assets domain's records as repositories answer them, and the row mappings behind them.
import type { Inspection, JudgedMedium } from '@galley/core';
import type { AssetFilesTable, AssetsTable } from './tables.js';

export type AssetState = 'active' | 'archived' | 'deleted';

export interface AssetRecord {
  id: string;
  owner: string;
  kind: string;
  title: string;
  state: AssetState;
  stateChangedAt: string;
  createdAt: string;
  updatedAt: string;
  currentRevision: number;
  verdict: Inspection['verdict'];
  media: JudgedMedium[];
}

export interface RevisionRecord {
  assetId: string;
  number: number;
  createdAt: string;
  inspection: Inspection;
  erasedAt: string | null;
  eraseReason: string | null;
}

export interface FileRecord {
  path: string;
  sha256: string;
  mediaType: string;
  size: number;
  /** The schema URI a JSON file was written with. */
  schemaUri: string | null;
}

export interface AssetListFilter {
  /** Owners whose assets are listed (the caller's, and `system:svc`). */
  owners: string[];
  state: AssetState;
  kinds?: string[];
  /** Case-insensitive partial match on the title. */
  q?: string;
  /** A medium id among the judged media. */
  mediumId?: string;
  verdict?: string;
  sort: 'updated' | 'title';
  /** Continue after this item of the previous page (its sort key and id). */
  after?: { key: string; id: string };
  limit: number;
}

export interface NewAsset {
  id: string;
  owner: string;
  kind: string;
  title: string;
  files: FileRecord[];
  inspection: Inspection;
}

/** A revision write: the asset as it is after it, or the conflict that refused it. */
/** A revision written; or not: another came first (`conflict`), or the asset is gone. */
export type RevisionWrite =
  | { ok: true; asset: AssetRecord }
  | { ok: false; code: 'conflict'; currentRevision: number }
  | { ok: false; code: 'gone' };

/** SQLite allows 32,766 bound values a statement; file rows have 8 each. */
export const ROWS_PER_INSERT = 500;
export const VALUES_PER_LIST = 1000;

export function toAsset(row: AssetsTable): AssetRecord {
  return {
    id: row.id,
    owner: row.owner,
    kind: row.kind,
    title: row.title,
    state: row.state as AssetState,
    stateChangedAt: row.state_changed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    currentRevision: row.current_revision,
    verdict: row.verdict as Inspection['verdict'],
    media: JSON.parse(row.media) as JudgedMedium[],
  };
}

export const toFile = (
  row: Pick<AssetFilesTable, 'path' | 'sha256' | 'media_type' | 'size' | 'schema_uri'>,
): FileRecord => ({
  path: row.path,
  sha256: row.sha256,
  mediaType: row.media_type,
  size: Number(row.size),
  schemaUri: row.schema_uri,
});

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The columns a revision's verdict and media are summarized in (assets and revisions alike). */
export function summaryOf(inspection: Inspection) {
  return {
    verdict: inspection.verdict,
    media: JSON.stringify(inspection.media),
    media_ids: ` ${inspection.media.map((m) => m.id).join(' ')} `,
  };
}
