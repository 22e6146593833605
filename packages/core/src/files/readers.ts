import type { Folder } from '../report/folder.js';
import { formatOfPath, imageFormats } from '../media/catalog.js';
import { cssReferences, type CssReference } from '../html/css.js';
import { readPage, type PageFacts } from '../html/page.js';
import { readDimensions, type DimensionResult } from './dimensions.js';
import { decodeUtf8 } from './text.js';

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
  /** The file's references as a style sheet's; undefined when absent or not UTF-8. */
  styleSheet(path: string): readonly CssReference[] | undefined;
  /** The image's size (guarded); undefined when the file is absent or not an image format. */
  dimensions(path: string): DimensionResult | undefined;
}

/**
 * What was read of files in earlier runs, by their bytes: a screen that checks the same folder
 * after each change of one page reads only that page again (a changed file is new bytes).
 */
export interface ReadMemo {
  readonly texts: WeakMap<Uint8Array, string | undefined>;
  readonly pages: WeakMap<Uint8Array, PageFacts | undefined>;
  readonly styleSheets: WeakMap<Uint8Array, readonly CssReference[] | undefined>;
  /** By the format read (a file renamed to another extension reads differently). */
  readonly dimensions: WeakMap<Uint8Array, { format: string; result: DimensionResult }>;
}

export function createReadMemo(): ReadMemo {
  return {
    texts: new WeakMap(),
    pages: new WeakMap(),
    styleSheets: new WeakMap(),
    dimensions: new WeakMap(),
  };
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

export function createFileReaders(folder: Folder, memo?: ReadMemo): FileReaders {
  const text = cached((path) => {
    const bytes = folder.get(path);
    return bytes === undefined ? undefined : remembered(memo?.texts, bytes, decodeUtf8);
  });
  /** A reader of what `read` makes of a file's text, remembered in `memo` by its bytes. */
  const fromText = <T>(
    memoOf: WeakMap<Uint8Array, T | undefined> | undefined,
    read: (text: string) => T,
  ) =>
    cached((path) => {
      const bytes = folder.get(path);
      if (bytes === undefined) return undefined;
      return remembered(memoOf, bytes, () => {
        const source = text(path);
        return source === undefined ? undefined : read(source);
      });
    });
  const page = fromText(memo?.pages, readPage);
  const styleSheet = fromText(memo?.styleSheets, cssReferences);
  const dimensions = cached((path) => {
    const bytes = folder.get(path);
    const format = formatOfPath(path);
    if (bytes === undefined || format === undefined || !imageFormats.has(format)) return undefined;
    const known = memo?.dimensions.get(bytes);
    if (known?.format === format) return known.result;
    const result = readDimensions(format, bytes);
    memo?.dimensions.set(bytes, { format, result });
    return result;
  });
  return { text, page, styleSheet, dimensions };
}
