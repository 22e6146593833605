// Tables of the projects domain: projects, their members, revisions (each with its folder
// manifest and its history entry), stable page ids, undo/redo steps, locks, open drafts with
// their operation logs, save replays by commit id, and confirmations.
// Times are IsoTime text (see ../time.ts); JSON columns are text; flags are 0/1 integers, so
// every column means the same on SQLite and PostgreSQL.

export interface ProjectsTable {
  id: string;
  /** The current revision's title, media and page count, copied here for listings. */
  title: string;
  media_id: string;
  media_version: number;
  page_count: number;
  /** The current saved revision. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface ProjectMembersTable {
  project_id: string;
  account_number: number;
  role: string;
  added_at: string;
  /** The project's `created_at`, copied so that one index holds a member's list in order. */
  project_created_at: string;
}

/** One saved revision: its whole state and the history entry that made it. Never changed. */
export interface ProjectRevisionsTable {
  project_id: string;
  revision: number;
  kind: string;
  page_id: string | null;
  summary: string;
  account_number: number;
  by_name: string;
  at: string;
  commit_id: string | null;
  title: string;
  media_id: string;
  media_version: number;
  /** JSON: [{file, title, public_url}] in project.json order. */
  pages: string;
  /** JSON: {path: [sha256, size, last changed revision]} sorted by path. */
  manifest: string;
  /** SHA-256 of the paths and contents only: equal folders have equal digests. */
  content_digest: string;
}

/** A page id stays with its (project, file) pair for the life of the project. */
export interface ProjectPagesTable {
  id: string;
  project_id: string;
  file: string;
}

/**
 * The undo/redo stacks of the saved history: one row per undoable change, in order. Rows not
 * undone form the undo stack (top: highest seq), undone rows the redo stack (top: lowest seq).
 */
export interface HistoryStepsTable {
  project_id: string;
  seq: number;
  /** The revision whose state the change produced, and the one it started from. */
  after_revision: number;
  before_revision: number;
  undone: number;
}

export interface ProjectLocksTable {
  project_id: string;
  account_number: number;
  client: string;
  kind: string;
  label: string;
  acquired_at: string;
  expires_at: string;
}

export interface DraftsTable {
  id: string;
  page_id: string;
  project_id: string;
  account_number: number;
  client: string;
  base_revision: number;
  base_sha256: string;
  /** The token the draft was opened with (newer ones are on its events). */
  token: string;
  /** Events up to this sequence number are saved into the base (kept only as a tombstone). */
  base_seq: number;
  created_at: string;
}

/**
 * An open draft's history, append-only: one row per operation, undo or redo, numbered 1, 2, …
 * The newest row carries the newest token and the answer for an exact retry. Appending the
 * next number is the compare-and-set: of two requests on the same token, one hits the key.
 */
export interface DraftEventsTable {
  draft_id: string;
  seq: number;
  kind: string;
  operation: string | null;
  token: string;
  fingerprint: string | null;
  answer: string | null;
  /** When the event happened (null: written before this was recorded). */
  at: string | null;
  /** 1 when the draft had an operation to undo after the event, else 0 (null: not recorded). */
  can_undo: number | null;
}

/** The answer of a save, kept so the same commit id answers the same again. */
export interface ProjectCommitsTable {
  project_id: string;
  commit_id: string;
  answer: string;
  created_at: string;
}

export interface ConfirmationsTable {
  id: string;
  project_id: string;
  version: number;
  revision: number;
  /** SHA-256 and size of the stored ZIP bytes (in the byte store under that name). */
  sha256: string;
  size: number;
  content_digest: string;
  note: string | null;
  account_number: number;
  by_name: string;
  confirmed_at: string;
}

export interface ProjectsTables {
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  project_revisions: ProjectRevisionsTable;
  project_pages: ProjectPagesTable;
  history_steps: HistoryStepsTable;
  project_locks: ProjectLocksTable;
  drafts: DraftsTable;
  draft_events: DraftEventsTable;
  project_commits: ProjectCommitsTable;
  confirmations: ConfirmationsTable;
}
