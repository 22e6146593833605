import type { Folder } from '../report/folder.js';
import type { CheckName, Violation } from '../report/violation.js';
import { formatOfPath } from '../media/catalog.js';
import type { Medium } from '../media/schema.js';
import { readDimensions, imageFormats, type DimensionResult } from './rules/dimensions.js';
import { decodeUtf8 } from './rules/text.js';
import { readPage, type PageFacts } from './html/page.js';
import { defaultZipLimits, type ZipLimits } from '../zip/limits.js';

/** project.json once it passed its schema (svc://schemas/project/1). */
export interface Project {
  readonly format: 1;
  readonly title: string;
  readonly media: { readonly id: string; readonly version: number };
  readonly pages: readonly {
    readonly file: string;
    readonly title: string;
    readonly public_url: string;
  }[];
}

/** What the `project` check learned: the project and its medium, when both are usable. */
export type ProjectState =
  | { readonly usable: true; readonly project: Project; readonly medium: Medium }
  | { readonly usable: false };

/** The limits a folder itself can break (the ZIP's own, such as its ratio, are readZip's). */
export type FolderLimits = Pick<ZipLimits, 'maxEntries' | 'maxFileBytes' | 'maxTotalBytes'>;
/** Decisions §4 defaults, the same numbers readZip enforces (configuration may change them). */
export const defaultFolderLimits: FolderLimits = {
  maxEntries: defaultZipLimits.maxEntries,
  maxFileBytes: defaultZipLimits.maxFileBytes,
  maxTotalBytes: defaultZipLimits.maxTotalBytes,
};

/** The folder plus everything read from it once and shared between checks. */
export interface FolderContext extends FileReaders {
  readonly folder: Folder;
  /** Every path, sorted, so findings come out in one order whatever the folder's. */
  readonly paths: readonly string[];
  readonly project: ProjectState;
  readonly limits: FolderLimits;
}

/** What one check found; `unusable` when its input could not be judged (outcome unchecked). */
export interface CheckFindings {
  readonly violations: Violation[];
  readonly unusable?: boolean;
}
export interface FolderCheck {
  readonly name: CheckName;
  run(context: FolderContext): CheckFindings;
}

function cached<T>(compute: (path: string) => T): (path: string) => T {
  const cache = new Map<string, T>();
  return (path) => {
    if (cache.has(path)) return cache.get(path) as T;
    const value = compute(path);
    cache.set(path, value);
    return value;
  };
}

/** Readers of a folder's files, each computed once (a page is parsed once for every check). */
export interface FileReaders {
  /** The file as UTF-8 text; undefined when absent or not UTF-8. */
  text(path: string): string | undefined;
  /** What the checks need from an HTML file; undefined when absent or not UTF-8. */
  page(path: string): PageFacts | undefined;
  /** The image's size (guarded); undefined when the file is absent or not an image format. */
  dimensions(path: string): DimensionResult | undefined;
}

/**
 * What was read of pages in earlier runs, by their bytes: a screen that checks the same folder
 * after each change of one page reads only that page again (a changed file is new bytes).
 */
export interface PageMemo {
  readonly texts: WeakMap<Uint8Array, string | undefined>;
  readonly pages: WeakMap<Uint8Array, PageFacts | undefined>;
}

export function createPageMemo(): PageMemo {
  return { texts: new WeakMap(), pages: new WeakMap() };
}

/** `read(bytes)`, taken from the memo when these very bytes were read before. */
function remembered<T>(
  memo: WeakMap<Uint8Array, T> | undefined,
  bytes: Uint8Array,
  read: (bytes: Uint8Array) => T,
): T {
  if (memo?.has(bytes)) return memo.get(bytes) as T;
  const value = read(bytes);
  memo?.set(bytes, value);
  return value;
}

export function createFileReaders(folder: Folder, memo?: PageMemo): FileReaders {
  const text = cached((path) => {
    const bytes = folder.get(path);
    return bytes === undefined ? undefined : remembered(memo?.texts, bytes, decodeUtf8);
  });
  const page = cached((path) => {
    const bytes = folder.get(path);
    if (bytes === undefined) return undefined;
    return remembered(memo?.pages, bytes, () => {
      const source = text(path);
      return source === undefined ? undefined : readPage(source);
    });
  });
  const dimensions = cached((path) => {
    const bytes = folder.get(path);
    const format = formatOfPath(path);
    if (bytes === undefined || format === undefined || !imageFormats.has(format)) return undefined;
    return readDimensions(format, bytes);
  });
  return { text, page, dimensions };
}

export function createContext(
  folder: Folder,
  project: ProjectState,
  limits: FolderLimits,
  memo?: PageMemo,
): FolderContext {
  const paths = [...folder.keys()].sort();
  return { folder, paths, project, limits, ...createFileReaders(folder, memo) };
}
