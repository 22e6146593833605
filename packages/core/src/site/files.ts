import { formatOfPath, imageFormats, webFormats } from '../media/catalog.js';
import type { Violation } from '../report/violation.js';
import { readDimensions } from '../files/dimensions.js';
import { fileFormatViolation } from '../files/file-format.js';
import { decodeUtf8 } from '../files/text.js';
import { maxNesting } from '../html/page.js';
import { violation } from '../report/codes.js';
import { scanCss } from './css.js';
import { scanPage, type PageScan, type PageUrl } from './html.js';

/** A file of the site as read: where it came from, where it sits in the site, what it refers to. */
export interface SiteFile {
  /** Path in the input (wrapping folder included): what every report names. */
  readonly input: string;
  /** Path inside the site (wrapping folder stripped). */
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly format: string | undefined;
  readonly kind: 'page' | 'style' | 'other';
  /** Decoded text of pages and style sheets; undefined when they are not UTF-8. */
  readonly text?: string;
  readonly page?: PageScan;
  /** URLs written in the file (pages and style sheets). */
  readonly urls: readonly PageUrl[];
  /** Why `formats` would refuse the file, or `pages` a page too deep (their rules, run here). */
  readonly unfit?: Violation;
}

const webAllowed: ReadonlySet<string> = new Set(webFormats);

/** Reads one file: decodes and scans pages and style sheets, judges it as `formats` would. */
export function readSiteFile(input: string, path: string, bytes: Uint8Array): SiteFile {
  const format = formatOfPath(path);
  const kind = format === 'html' ? 'page' : format === 'css' ? 'style' : 'other';
  const text = kind === 'other' ? undefined : decodeUtf8(bytes);
  const unfit = fileFormatViolation(
    path,
    {
      bytes,
      text: () => text ?? decodeUtf8(bytes),
      dimensions: () =>
        format !== undefined && imageFormats.has(format)
          ? readDimensions(format, bytes)
          : undefined,
    },
    webAllowed,
  );
  const file = { input, path, bytes, format, kind, ...(unfit ? { unfit } : {}) } as const;
  if (text === undefined) return { ...file, urls: [] };
  if (kind === 'page') {
    const page = scanPage(text);
    // The pages check refuses a page nested past maxNesting; the converted folder must pass it,
    // so the page is refused here too (site.read).
    if (page.tooDeep) {
      const tooDeep = violation('pages.nesting', { path, expected: maxNesting });
      return { ...file, text, urls: [], unfit: unfit ?? tooDeep };
    }
    return { ...file, text, page, urls: page.urls };
  }
  const urls = scanCss(text).map((found): PageUrl => ({
    url: found.url,
    role: 'load',
    element: 'css',
    holder: { kind: 'text', offset: 0 },
    at: { start: found.start, end: found.end },
    removal: [],
    index: found.start,
  }));
  return { ...file, text, urls };
}

/** Content that is not what a web file may be (wrong type, active SVG): not just unreadable. */
export function isWrongType(file: SiteFile): boolean {
  const code = file.unfit?.code;
  return (
    code === 'formats.not_allowed' || code === 'formats.mismatch' || code === 'formats.svg_active'
  );
}

/**
 * Finds the file a resolved URL means: exactly, else after Unicode NFC, else ignoring case (when
 * only one file matches: sites made on case-insensitive disks count on it, and the rename to
 * lower case makes the reference right). A folder means its `index.html`; so does a bare name
 * with no such file but such a folder (`about` → `about/index.html`).
 */
export class SiteIndex {
  private readonly exact: ReadonlySet<string>;
  private readonly normalized = new Map<string, string>();
  private readonly folded = new Map<string, string | null>();

  constructor(paths: Iterable<string>) {
    this.exact = new Set(paths);
    for (const path of this.exact) {
      const nfc = path.normalize('NFC');
      if (!this.normalized.has(nfc)) this.normalized.set(nfc, path);
      const key = nfc.toLowerCase();
      this.folded.set(key, this.folded.has(key) ? null : path);
    }
  }

  find(path: string, folder: boolean): { path: string; folder: boolean } | undefined {
    // A folder's index may be an `index.htm`, which the conversion renames to `index.html`.
    const base = path === '' ? 'index' : `${path}/index`;
    const index = () => this.lookup(`${base}.html`) ?? this.lookup(`${base}.htm`);
    if (folder) {
      const found = index();
      return found === undefined ? undefined : { path: found, folder: true };
    }
    const file = this.lookup(path);
    if (file !== undefined) return { path: file, folder: false };
    const inFolder = index();
    return inFolder === undefined ? undefined : { path: inFolder, folder: true };
  }

  private lookup(path: string): string | undefined {
    if (this.exact.has(path)) return path;
    const nfc = path.normalize('NFC');
    return this.normalized.get(nfc) ?? this.folded.get(nfc.toLowerCase()) ?? undefined;
  }
}
