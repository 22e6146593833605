import { addFacts, pathRecord, validateAssetInput, validateAssetPaths } from '@galley/core';
import type { AssetKind, ContentFacts, Inspection, KnownFacts, MediumRef } from '@galley/core';
import { isoTime } from '@galley/store';
import type { FileRecord, StoreScope } from '@galley/store';
import type { WorkPool } from '../../pool/work-pool.js';
import { byPath } from '../present.js';
import { fieldErrorsOf, refusalOf, v2ProblemOf, validationFailed } from '../problems.js';
import type { FieldError } from '../problems.js';
import type { ContentLoader } from './content-loader.js';
import type { ContentFactsMemo } from './content-facts.js';
import type { StagedFile } from './file-specs.js';
import { recheck } from './sources.js';
import type { Base, Sources } from './sources.js';

/** An asset revision holds at most this many files (decisions §6). */
export const MAX_REVISION_FILES = 5000;

export interface RevisionChange {
  kind: AssetKind;
  /** The files of the revision the change is based on (none for a new asset). */
  base: readonly FileRecord[];
  put: readonly StagedFile[];
  remove: ReadonlyArray<{ path: string; field: string }>;
  /** Where errors about the revision as a whole are reported (`files`, `put`, `to`). */
  field: string;
  /** A production's medium as sent at creation (afterwards, production.json says it). */
  medium?: MediumRef;
  now: Date;
}

export interface RevisionPlan {
  /** Every file of the new revision, by path. */
  files: FileRecord[];
  /** The files this change adds or replaces (unchanged ones are not written again). */
  put: FileRecord[];
  remove: string[];
  inspection: Inspection;
  /** Files whose bytes came with the request and must be stored. */
  fresh: StagedFile[];
}

const record = ({ path, sha256, size, mediaType, schemaUri }: FileRecord): FileRecord => ({
  path,
  sha256,
  size,
  mediaType,
  schemaUri,
});

/** Applies put and remove to the base; each path given at most once. */
function compose(change: RevisionChange): Map<string, FileRecord | StagedFile> {
  const reasons: FieldError[] = [];
  const files = new Map<string, FileRecord | StagedFile>(change.base.map((f) => [f.path, f]));
  const touched = new Set<string>();
  const once = (path: string, field: string) => {
    if (touched.has(path)) reasons.push([field, `${path} is given twice in this request`]);
    touched.add(path);
  };
  for (const { path, field } of change.remove) {
    once(path, field);
    if (!files.delete(path)) reasons.push([field, `${path} is not in the base revision`]);
  }
  for (const file of change.put) {
    once(file.path, file.field);
    files.set(file.path, file);
  }
  if (files.size > MAX_REVISION_FILES) {
    reasons.push([change.field, `a revision holds at most ${MAX_REVISION_FILES} files`]);
  }
  if (reasons.length) throw validationFailed(reasons);
  return files;
}

/** The core's reasons why input is invalid, keyed by the request field that brought them. */
function rejectInvalid(
  reasons: ReturnType<typeof validateAssetInput>,
  files: Map<string, FileRecord | StagedFile>,
  change: Pick<RevisionChange, 'remove' | 'field'>,
): void {
  if (reasons.length === 0) return;
  const errors: FieldError[] = [];
  // A file this change removes (a production without its production.json) is that entry's fault.
  const removedBy = new Map(change.remove.map(({ path, field }) => [path, field]));
  for (const reason of reasons) {
    const from = files.get(reason.path);
    const staged = from && 'field' in from ? from.field : undefined;
    const key =
      reason.code === 'canvas.medium_unknown'
        ? 'medium'
        : (staged ?? removedBy.get(reason.path) ?? change.field);
    const text = staged || !reason.path ? reason.message : `${reason.path}: ${reason.message}`;
    errors.push([key, `${text} (${reason.code})`]);
  }
  throw v2ProblemOf('invalid_files', {
    detail: 'The files are not valid for this kind of asset.',
    extras: { errors: fieldErrorsOf(errors), violations: reasons },
  });
}

/**
 * Refuses (422) paths of a change that no base could make valid: a `..` segment, characters
 * outside the naming rules. For a change sent on a base that cannot be judged (absent, or its
 * content erased), so that such input is 422 before the 409 all the same (decisions §8).
 */
export function rejectInvalidPaths(change: Pick<RevisionChange, 'put' | 'remove' | 'field'>) {
  const files = new Map<string, FileRecord | StagedFile>(change.put.map((f) => [f.path, f]));
  const paths = [...files.keys(), ...change.remove.map((r) => r.path)];
  rejectInvalid(validateAssetPaths(paths), files, change);
}

/**
 * What planning a revision reads with: stored bytes, facts of contents seen before, workers; and
 * the store, to resolve the change's sources again.
 */
export interface PlanTools {
  loader: ContentLoader;
  facts: ContentFactsMemo;
  pool: WorkPool;
  store: StoreScope;
}

/**
 * Plans a revision (see `plan`). Stored files found gone meanwhile answer what resolving the
 * change's sources again says (see `recheck`): as if the request had come after what removed them.
 */
export async function planRevision(
  tools: PlanTools,
  change: RevisionChange,
  origin: { sources: Sources; base?: Base },
): Promise<RevisionPlan> {
  try {
    return await plan(tools, change);
  } catch (error) {
    if (refusalOf(error)?.code === 'content_erased') await recheck(tools.store, origin);
    throw error;
  }
}

/**
 * Plans a revision: composes its files, reads what the core needs, refuses invalid input (422,
 * nothing stored) and inspects the rest. Contents inspected before are neither loaded nor read
 * again (their facts are known; JSON aside, parsed for its schema), so a revision of a large
 * production reads what it changes; the inspection runs in the pool when that is large (its
 * bytes are copied there, as this request still stores them). What is valid but unfit (an image
 * of the wrong size) passes here and fails the inspection.
 */
async function plan(tools: PlanTools, change: RevisionChange): Promise<RevisionPlan> {
  const files = compose(change);
  const all = [...files.values()].sort(byPath);
  const { known, unread, unreadBytes } = tools.facts.known(all);
  const inMemory = new Map<string, Uint8Array>();
  for (const file of unread) if ('bytes' in file && file.bytes) inMemory.set(file.path, file.bytes);
  const stored = await tools.loader.load(unread.filter((f) => !inMemory.has(f.path)));
  const folder = new Map([...inMemory, ...stored]);
  const schemas = pathRecord<string>();
  const contents = pathRecord<string>();
  for (const file of all) {
    if (file.schemaUri) schemas[file.path] = file.schemaUri;
    contents[file.path] = file.sha256;
  }
  const input = {
    kind: change.kind,
    files: folder,
    schemas,
    contents,
    ...(change.medium ? { medium: change.medium } : {}),
  };
  const { inspection, learned } = await tools.pool.run(
    'inspect',
    { ...input, known, now: isoTime(change.now) },
    { size: unreadBytes },
  );
  tools.facts.learn(learned);
  // Invalid input is a subset of what the inspection finds: a clean one needs no second look.
  const findings = inspection.checks.some((check) => check.violations.length > 0);
  if (findings) {
    const judged = { ...input, known: withLearned(known, learned) };
    rejectInvalid(validateAssetInput(judged), files, change);
  }
  const fresh = change.put.filter((f) => f.bytes !== undefined);
  for (const file of fresh) tools.loader.remember(file.sha256, file.bytes!);
  return {
    files: all.map(record),
    put: change.put.map(record),
    remove: change.remove.map((r) => r.path),
    inspection,
    fresh,
  };
}

/** The facts `known` before an inspection and those it `learned`, as one. */
function withLearned(known: KnownFacts, learned: KnownFacts): KnownFacts {
  const all = new Map<string, Map<string, ContentFacts>>();
  for (const facts of [known, learned])
    for (const [format, byContent] of facts)
      for (const [sha256, read] of byContent) addFacts(all, format, sha256, read);
  return all;
}
