import { cleanUrl, resolveReference } from '../html/resolve.js';

/** What a URL written in a page or style sheet points at. */
export type UrlTarget =
  /** Nothing to check: empty, fragment or query only, `data:`, `mailto:`, `javascript:`… */
  | { readonly kind: 'none' }
  | { readonly kind: 'external' }
  | {
      readonly kind: 'local';
      /** Resolved path in the site (percent-decoded); undefined when it leaves the site or
       * cannot be decoded. */
      readonly path: string | undefined;
      /** Written as a folder (`about/`): it means the folder's `index.html`. */
      readonly folder: boolean;
      /** Written from the site root (`/css/a.css`). */
      readonly absolute: boolean;
      /** The `?query#fragment` as written, kept when the reference is rewritten. */
      readonly suffix: string;
    };

/**
 * Classifies `raw` as written in the file at site path `from` (or, under a `<base href>`, at the
 * path the base resolves to), as the links check reads it: tabs and newlines dropped, `\` read
 * as `/`, percent-encoding decoded.
 */
export function resolveUrl(raw: string, from: string): UrlTarget {
  const resolved = resolveReference(raw, from);
  if (resolved.kind === 'none' || resolved.kind === 'external') return { kind: resolved.kind };
  const url = cleanUrl(raw);
  const cut = url.search(/[?#]/);
  const suffix = cut < 0 ? '' : url.slice(cut);
  const absolute = url.startsWith('/') || url.startsWith('\\');
  if (resolved.kind !== 'local')
    return { kind: 'local', path: undefined, folder: false, absolute, suffix };
  const folder = resolved.path === '' || resolved.path.endsWith('/');
  const path = folder && resolved.path !== '' ? resolved.path.slice(0, -1) : resolved.path;
  return { kind: 'local', path, folder, absolute, suffix };
}

function folderOf(path: string): string[] {
  const segments = path.split('/');
  segments.pop();
  return segments;
}

/**
 * How a file at project path `from` refers to project path `to`, in the style of the original
 * reference (relative or from the root, file or folder), with its query and fragment.
 */
export function urlBetween(
  from: string,
  to: string,
  style: { readonly absolute: boolean; readonly folder: boolean; readonly suffix: string },
): string {
  const target = style.folder ? to.slice(0, to.length - 'index.html'.length) : to;
  if (style.absolute) return `/${target}${style.suffix}`;
  const fromFolder = folderOf(from);
  const toParts = target.split('/');
  let common = 0;
  while (
    common < fromFolder.length &&
    common < toParts.length - 1 &&
    fromFolder[common] === toParts[common]
  ) {
    common++;
  }
  const up = '../'.repeat(fromFolder.length - common);
  const relative = `${up}${toParts.slice(common).join('/')}`;
  return `${relative === '' ? './' : relative}${style.suffix}`;
}
