import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { isWrongType, type SiteFile, type SiteIndex } from './files.js';
import { lineOf, type PageUrl } from './html.js';
import { isRelativeReference, resolveReference } from '../html/resolve.js';
import { resolveUrl } from './urls.js';
import { isEmbedLoad } from './drop.js';
import type { UrlFate } from './fate.js';

/** Loads the conversion removes instead of refusing the site (each one a warning). */
export interface DropOptions {
  /** Loads from another origin (`site.external`): `site.external_dropped`, `site.embed_linked`. */
  readonly dropExternal?: boolean;
  /** Loads of absent local files or of files of a refused type: `site.missing_dropped`. */
  readonly dropMissing?: boolean;
}

export interface ReferenceFindings {
  readonly violations: readonly Violation[];
  /** Per file (by site path), the fate of each of its URLs (same index), where one is needed. */
  readonly fates: ReadonlyMap<string, readonly (UrlFate | undefined)[]>;
  /** Site paths some page or style sheet refers to. */
  readonly referenced: ReadonlySet<string>;
  /**
   * Pages (site paths) whose URLs were resolved against a `<base href>` in the site: the
   * conversion removes the base and rewrites their URLs to resolve from the page itself.
   */
  readonly rebased: ReadonlySet<string>;
}

/** How a page's `<base href>` changes its relative URLs (as in the links check). */
type Base =
  | { readonly kind: 'none' }
  | { readonly kind: 'external'; readonly href: string }
  /** `from`: a path whose folder the relative URLs are resolved in. */
  | { readonly kind: 'local'; readonly from: string };

/** What a URL written in some folder means; equal for every file of that folder. */
type Meaning =
  | { readonly kind: 'none' | 'external' | 'missing' }
  | { readonly kind: 'wrong_type'; readonly file: SiteFile }
  | { readonly kind: 'file'; readonly fate: Extract<UrlFate, { kind: 'file' }> };

const removed: UrlFate = { kind: 'remove' };
const droppedExternal: UrlFate = { kind: 'drop', reason: 'external' };
const droppedMissing: UrlFate = { kind: 'drop', reason: 'missing' };

/**
 * Judges every URL of every page and style sheet (decisions §5): a load from another origin is
 * `site.external`, a missing local load `site.missing`, a reference (a link included) to a
 * file the medium does not allow `site.file_type`; a link to a missing local file is removed.
 * `drop` turns the loads it names into fates instead of violations.
 */
export function judgeReferences(
  files: readonly SiteFile[],
  index: SiteIndex,
  drop: DropOptions = {},
): ReferenceFindings {
  const violations: Violation[] = [];
  const fates = new Map<string, (UrlFate | undefined)[]>();
  const referenced = new Set<string>();
  const rebased = new Set<string>();
  const byPath = new Map(files.map((file) => [file.path, file]));
  // Sites repeat their URLs (navigation, logos, style sheets) on every page of a folder.
  const meaningsByFolder = new Map<string, Map<string, Meaning>>();
  for (const file of files) {
    const base = baseOf(file, violations);
    if (base.kind === 'local') rebased.add(file.path);
    const from = base.kind === 'local' ? base.from : file.path;
    const folder = from.slice(0, from.lastIndexOf('/') + 1);
    let meanings = meaningsByFolder.get(folder);
    if (meanings === undefined)
      meaningsByFolder.set(folder, (meanings = new Map<string, Meaning>()));
    const fileFates = new Array<UrlFate | undefined>(file.urls.length);
    fates.set(file.path, fileFates);
    file.urls.forEach((url, i) => {
      if (base.kind === 'external' && isRelativeReference(url.url)) {
        if (url.role === 'load' && drop.dropExternal) fileFates[i] = droppedExternal;
        else if (url.role === 'load') {
          const message = `${externalMessage(url)} Its <base href="${base.href}"> resolves relative URLs there.`;
          violations.push(violation('site.external', { ...place(file, url), message }));
        }
        return;
      }
      let meaning = meanings.get(url.url);
      if (meaning === undefined) {
        meaning = resolveMeaning(url.url, from, index, byPath);
        meanings.set(url.url, meaning);
      }
      if (meaning.kind === 'file') {
        fileFates[i] = meaning.fate;
        referenced.add(meaning.fate.path);
      } else if (meaning.kind === 'missing' && url.role === 'link') {
        fileFates[i] = removed;
      } else if (
        url.role === 'load' &&
        (meaning.kind === 'external' ? drop.dropExternal : drop.dropMissing) &&
        meaning.kind !== 'none'
      ) {
        fileFates[i] = meaning.kind === 'external' ? droppedExternal : droppedMissing;
      } else if (meaning.kind === 'wrong_type') {
        referenced.add(meaning.file.path);
        const reason = meaning.file.unfit?.message ?? '';
        const message = `${loader(url)} refers to ${meaning.file.input}: ${reason}`;
        violations.push(violation('site.file_type', { ...place(file, url), message }));
      } else if (meaning.kind === 'external' && url.role === 'load') {
        const embed = isEmbedLoad(url) ? { suggestion: embedSuggestion } : {};
        violations.push(
          violation('site.external', {
            ...place(file, url),
            message: externalMessage(url),
            ...embed,
          }),
        );
      } else if (meaning.kind === 'missing') {
        violations.push(
          violation('site.missing', { ...place(file, url), message: missingMessage(url) }),
        );
      }
    });
  }
  return { violations, fates, referenced, rebased };
}

/**
 * A page's base, read as the links check reads it (a base that is empty, a fragment or of a
 * scheme without a path changes nothing). A base that leaves the site or cannot be decoded is
 * `site.missing` (the links check: `links.outside`, `links.missing`); its page's URLs are then
 * judged from the page itself.
 */
function baseOf(file: SiteFile, violations: Violation[]): Base {
  const base = file.page?.base;
  if (base === undefined) return { kind: 'none' };
  const resolved = resolveReference(base.href, file.path);
  switch (resolved.kind) {
    case 'none':
      return { kind: 'none' };
    case 'external':
      return { kind: 'external', href: base.href };
    case 'local':
      return { kind: 'local', from: resolved.path };
    case 'outside':
    case 'malformed': {
      const line = lineOf(file.text ?? '', base.index);
      const where = resolved.kind === 'outside' ? 'outside the site' : 'to no path (bad encoding)';
      const message = `<base href="${base.href}"> points ${where}: the page's relative URLs would resolve there.`;
      violations.push(
        violation('site.missing', { path: file.input, line, actual: base.href, message }),
      );
      return { kind: 'none' };
    }
  }
}

function resolveMeaning(
  url: string,
  from: string,
  index: SiteIndex,
  byPath: ReadonlyMap<string, SiteFile>,
): Meaning {
  const target = resolveUrl(url, from);
  if (target.kind !== 'local') return target;
  const found = target.path === undefined ? undefined : index.find(target.path, target.folder);
  if (found === undefined || target.path === undefined) return { kind: 'missing' };
  const file = byPath.get(found.path);
  // A page that cannot be read is reported once, as itself (site.read).
  if (file && file.kind !== 'page' && isWrongType(file)) return { kind: 'wrong_type', file };
  const written = target.folder ? indexOf(target.path) : target.path;
  const fate = {
    kind: 'file' as const,
    path: found.path,
    folder: found.folder,
    absolute: target.absolute,
    suffix: target.suffix,
    exact: written === found.path && found.folder === target.folder,
  };
  return { kind: 'file', fate };
}

const indexOf = (folder: string) => (folder === '' ? 'index.html' : `${folder}/index.html`);

function place(file: SiteFile, url: PageUrl) {
  return { path: file.input, line: lineOf(file.text ?? '', url.index), actual: url.url };
}

/** An embedded page (a video player, a map) is no file to fetch: the way out is a link. */
const embedSuggestion =
  'An embedded page (a video or a map) cannot be copied into the site: convert with ' +
  '`galley convert --drop-external` (when uploading: field `drop_external`) to replace it with ' +
  'a link to it, or remove the element.';

function externalMessage(url: PageUrl): string {
  return `${loader(url)} loads ${url.url} from another origin.`;
}

function missingMessage(url: PageUrl): string {
  return `${loader(url)} loads ${url.url}, which is not in the site.`;
}

function loader(url: PageUrl): string {
  return url.element === 'css' ? 'The style sheet' : `<${url.element}>`;
}
