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

const schemeless = /^[a-z][a-z0-9+.-]*:/i;
const inertSchemes = new Set(['data', 'mailto', 'tel', 'sms', 'javascript', 'about', 'blob']);

/** Classifies `raw` as written in the file at site path `from` (HTML attribute values trimmed). */
export function resolveUrl(raw: string, from: string): UrlTarget {
  const url = raw.trim();
  if (url === '' || url.startsWith('#') || url.startsWith('?')) return { kind: 'none' };
  if (url.startsWith('//') || url.startsWith('\\\\')) return { kind: 'external' };
  const scheme = schemeless.exec(url);
  if (scheme) {
    const name = scheme[0].slice(0, -1).toLowerCase();
    return inertSchemes.has(name) ? { kind: 'none' } : { kind: 'external' };
  }
  const cut = url.search(/[?#]/);
  const written = cut < 0 ? url : url.slice(0, cut);
  const suffix = cut < 0 ? '' : url.slice(cut);
  const absolute = written.startsWith('/');
  const segments = absolute ? [] : folderOf(from);
  const parts = written.split('/');
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.pop() === undefined)
        return { kind: 'local', path: undefined, folder: false, absolute, suffix };
      continue;
    }
    const decoded = decodeSegment(part);
    if (decoded === undefined)
      return { kind: 'local', path: undefined, folder: false, absolute, suffix };
    segments.push(decoded);
  }
  const last = parts[parts.length - 1];
  const folder = last === '' || last === '.' || last === '..';
  return { kind: 'local', path: segments.join('/'), folder, absolute, suffix };
}

function folderOf(path: string): string[] {
  const segments = path.split('/');
  segments.pop();
  return segments;
}

/** A percent-decoded segment; undefined when the encoding is broken (nothing can match it). */
function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
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
