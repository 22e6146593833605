import type { Folder } from '../report/folder.js';
import { canvasFormats, findMedium } from '../media/catalog.js';
import type { Medium, MediumRef } from '../media/schema.js';
import { createFileReaders, type FileReaders } from '../files/readers.js';
import { decodeUtf8 } from '../files/text.js';
import type { Violation } from '../report/violation.js';
import type { AssetKind } from './inspection.js';
import { schemaUri } from '../schemas/definitions.js';
import { formatOfPath } from '../media/catalog.js';
import {
  addFacts,
  knownFacts,
  readContentFacts,
  type ContentFacts,
  type KnownFacts,
} from './content-facts.js';

export const productionFile = 'production.json';
export const productionFolders = ['canvas/', 'references/'] as const;

const imageKindFormats = ['png', 'jpeg', 'gif', 'webp', 'svg', 'avif'];
const fontKindFormats = ['woff2', 'woff', 'ttf', 'otf'];
/** references/ holds copies of other assets: images, fonts, data, productions. */
const referenceFormats = new Set([
  ...imageKindFormats,
  ...fontKindFormats,
  ...canvasFormats,
  'json',
]);

/** An asset revision to judge: its kind, files and, optionally, the schema of each JSON file. */
export interface AssetInput {
  readonly kind: AssetKind;
  /**
   * The files' bytes, by path. A file listed in `contents` whose content's facts `known` holds,
   * and that is not JSON (parsed for its schema), may be left out: it is not read again.
   */
  readonly files: Folder;
  /**
   * Schema URI per path, from the write's file specifications (`{path, json, schema}`). A JSON
   * file not named here may name its schema in a top-level `$schema` member.
   */
  readonly schemas?: Readonly<Record<string, string>>;
  /** The medium given with the asset (a production's, or one to judge an image against). */
  readonly medium?: MediumRef;
  /**
   * The SHA-256 (hex) of each file's bytes, by path; with it, the revision's files are these
   * paths (and any others in `files`). With `known`, a file whose content was inspected before
   * is not read again: the facts of its content are taken from there.
   */
  readonly contents?: Readonly<Record<string, string>>;
  /** Facts of contents read by earlier inspections (see ContentFacts). */
  readonly known?: KnownFacts;
}

export type JsonRead = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** Everything the standards share about one asset, each file read once. */
export interface AssetContext extends FileReaders {
  readonly kind: AssetKind;
  /** The revision's paths, sorted (see `AssetInput.contents`). */
  readonly paths: readonly string[];
  has(path: string): boolean;
  /** The medium in force: production.json's, else the one given; undefined if none. */
  readonly mediumRef: MediumRef | undefined;
  readonly medium: Medium | undefined;
  json(path: string): JsonRead;
  /**
   * The schema URIs a JSON file must match, the one it names first: the one given with the
   * write, else its `$schema` member. A production's production.json must also match
   * production/1 whatever it names, since the production's medium is read from it.
   */
  schemasOf(path: string): readonly string[];
  /** The formats a file at `path` may have in this kind of asset. */
  allowedFormats(path: string): ReadonlySet<string>;
  /** What the file's content says in its format; undefined when absent or of no known format. */
  facts(path: string): ContentFacts | undefined;
  /** Facts this inspection read that `known` did not hold. */
  readonly learned: Map<string, Map<string, ContentFacts>>;
}

/** What one standard found; `unusable` makes it `unchecked` when nothing failed. */
export interface StandardFindings {
  readonly target: string | null;
  readonly violations: Violation[];
  readonly unusable?: boolean;
  readonly details: Record<string, unknown>;
}

function readJson(files: Folder, path: string): JsonRead {
  const text = files.has(path) ? decodeUtf8(files.get(path)!) : undefined;
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

const isMediumRef = (value: unknown): value is MediumRef =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as MediumRef).id === 'string' &&
  Number.isInteger((value as MediumRef).version);

export function createAssetContext(input: AssetInput): AssetContext {
  const { kind, files } = input;
  const jsonCache = new Map<string, JsonRead>();
  const json = (path: string) => {
    const cached = jsonCache.get(path) ?? readJson(files, path);
    jsonCache.set(path, cached);
    return cached;
  };
  const declared = kind === 'production' ? json(productionFile) : { ok: false as const };
  const fromFile =
    declared.ok && typeof declared.value === 'object' && declared.value !== null
      ? (declared.value as { medium?: unknown }).medium
      : undefined;
  const mediumRef = isMediumRef(fromFile) ? fromFile : input.medium;
  const medium = mediumRef && findMedium(mediumRef);

  const canvasAllowed = new Set(medium?.canvas ? medium.formats : canvasFormats);
  const byKind: Readonly<Record<AssetKind, ReadonlySet<string>>> = {
    image: new Set(imageKindFormats),
    font: new Set(fontKindFormats),
    data: new Set(['json']),
    production: referenceFormats,
  };
  const allowedFormats = (path: string): ReadonlySet<string> => {
    if (kind !== 'production') return byKind[kind] ?? new Set();
    if (path === productionFile) return new Set(['json']);
    return path.startsWith('canvas/') ? canvasAllowed : referenceFormats;
  };
  const namedSchema = (path: string): string | undefined => {
    const given = input.schemas?.[path];
    if (given !== undefined) return given;
    const read = json(path);
    if (!read.ok || typeof read.value !== 'object' || read.value === null) return undefined;
    const own = (read.value as { $schema?: unknown }).$schema;
    return typeof own === 'string' ? own : undefined;
  };
  const schemasOf = (path: string): readonly string[] => {
    const named = namedSchema(path);
    const fixed =
      kind === 'production' && path === productionFile ? schemaUri('production', 1) : undefined;
    // A named schema is checked even on production.json (asset-api-v2: "the content is then
    // checked against that schema"), never instead of production/1.
    return [...new Set([named, fixed].filter((uri) => uri !== undefined))];
  };
  const present = new Set(files.keys());
  if (input.contents) for (const path in input.contents) present.add(path);
  const readers = createFileReaders(files);
  const learned = new Map<string, Map<string, ContentFacts>>();
  const factsByPath = new Map<string, ContentFacts | undefined>();
  const readFacts = (path: string): ContentFacts | undefined => {
    const format = formatOfPath(path);
    if (format === undefined || !present.has(path)) return undefined;
    const sha256 = input.contents?.[path];
    const known =
      sha256 === undefined
        ? undefined
        : (knownFacts(input.known, format, sha256) ?? knownFacts(learned, format, sha256));
    if (known) return known;
    const bytes = files.get(path);
    // Only a file whose facts are known may come without its bytes (see AssetInput.files).
    if (bytes === undefined) throw new Error(`${path}: neither its bytes nor its facts are known`);
    const reader = {
      bytes,
      text: () => readers.text(path),
      dimensions: () => readers.dimensions(path),
    };
    const read = readContentFacts(format, path, reader);
    if (sha256 !== undefined) addFacts(learned, format, sha256, read);
    return read;
  };
  const facts = (path: string) => {
    if (!factsByPath.has(path)) factsByPath.set(path, readFacts(path));
    return factsByPath.get(path);
  };
  return {
    kind,
    paths: [...present].sort(),
    has: (path) => present.has(path),
    mediumRef,
    medium,
    json,
    schemasOf,
    allowedFormats,
    ...readers,
    dimensions: (path) => facts(path)?.dimensions,
    facts,
    learned,
  };
}
