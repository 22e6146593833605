// Tables of the assets domain (asset-api-v2): assets, their numbered revisions, the files of
// each revision, uploaded blobs and the request keys that make writes idempotent.
// Times are IsoTime text (see ../time.ts); JSON values are stored as text.

export interface AssetsTable {
  id: string;
  /** `user:<account_number>` or `system:svc`. */
  owner: string;
  kind: string;
  title: string;
  /** The title lower-cased in JavaScript, so `q` matches alike on SQLite and PostgreSQL. */
  title_key: string;
  state: string;
  /** When the state last changed: the trash's 30 days count from here. */
  state_changed_at: string;
  created_at: string;
  updated_at: string;
  current_revision: number;
  /** The current revision's verdict and judged media, denormalized for list filters. */
  verdict: string;
  /** JSON list of the judged media (the list items' `inspection.media`). */
  media: string;
  /** The judged media ids between spaces (` banner social `), for `medium=`. */
  media_ids: string;
}

export interface AssetRevisionsTable {
  asset_id: string;
  number: number;
  created_at: string;
  /** The inspection as JSON. */
  inspection: string;
  verdict: string;
  media: string;
  erased_at: string | null;
  erase_reason: string | null;
}

/**
 * One row per file version, valid for revisions from_revision ≤ n < to_revision (null: still
 * current). A new revision closes and opens rows only for the paths it changes, so writing one
 * costs the size of the change, not of the asset.
 */
export interface AssetFilesTable {
  asset_id: string;
  path: string;
  from_revision: number;
  to_revision: number | null;
  sha256: string;
  media_type: string;
  size: number;
  /** The schema URI a JSON file was written with, kept for later inspections. */
  schema_uri: string | null;
}

export interface BlobsTable {
  account_number: number;
  sha256: string;
  size: number;
  created_at: string;
  expires_at: string;
}

export interface RequestKeysTable {
  account_number: number;
  request_key: string;
  fingerprint: string;
  /** `running` until the first answer is stored, then `done`. */
  state: string;
  status: number | null;
  /** The first answer: JSON `{headers, body}`. */
  response: string | null;
  created_at: string;
  expires_at: string;
  /** While `running`: when the claim ends unless its request renews it (null on old rows). */
  lease_until: string | null;
  /** Who holds the claim: a random token, given to the claimer only. */
  claim_token: string | null;
  /**
   * The revision whose files and inspection the answer shows in full, left out of `response`
   * (see `RequestKeysRepository.complete`); null when `response` is the whole answer.
   */
  shown_asset_id: string | null;
  shown_revision: number | null;
}

/**
 * Contents the editing interface's folders use: it never lets bytes go (every revision and
 * confirmed version stays readable), so a release of the asset interface never deletes these.
 */
export interface KeptContentsTable {
  sha256: string;
}

/** When each periodic task shared by all processes is next due (ServiceTurnsRepository). */
export interface ServiceTurnsTable {
  name: string;
  due_at: string;
}

export interface AssetsTables {
  assets: AssetsTable;
  asset_revisions: AssetRevisionsTable;
  asset_files: AssetFilesTable;
  blobs: BlobsTable;
  request_keys: RequestKeysTable;
  kept_contents: KeptContentsTable;
  service_turns: ServiceTurnsTable;
}
