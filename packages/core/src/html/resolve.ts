import type { Folder } from '../report/folder.js';

export type ResolvedReference =
  /** Nothing to load or check: empty, a fragment, `data:`, `mailto:` and the like. */
  | { readonly kind: 'none' }
  /** Another origin (`https:`, `//host/…`, any other scheme that fetches). */
  | { readonly kind: 'external' }
  /** A local path that climbs above the folder's root. */
  | { readonly kind: 'outside' }
  /** A local path that cannot be decoded (bad percent-encoding). */
  | { readonly kind: 'malformed' }
  /** A local path relative to the folder's root (`dir/` keeps its trailing slash). */
  | { readonly kind: 'local'; readonly path: string };

const inertSchemes = new Set(['data', 'mailto', 'tel', 'sms', 'javascript', 'about', 'blob']);

/** Directory of a folder path, with its trailing slash ('' for the root). */
export function directoryOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/**
 * A URL as the URL parser reads it: tabs and newlines removed anywhere, C0 controls and spaces
 * (and, to be safe, other white space) trimmed from both ends.
 */
export function cleanUrl(raw: string): string {
  const url = /[\t\n\r]/.test(raw) ? raw.replace(/[\t\n\r]/g, '') : raw;
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start++;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end--;
  return url.slice(start, end).trim();
}

const schemeOf = (url: string) => /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
/** `//host/…`; browsers read `\` as `/` in web URLs, so `\\host`, `/\host` and `\/host` too. */
const isHostRelative = (url: string) => /^[/\\]{2}/.test(url);

/**
 * Whether a URL is relative, resolved against the page's base URL (`<base href>`): anything
 * but an empty URL, a fragment alone (the same document), an absolute URL and `//host/…`.
 */
export function isRelativeReference(raw: string): boolean {
  const url = cleanUrl(raw);
  return url !== '' && !url.startsWith('#') && schemeOf(url) === undefined && !isHostRelative(url);
}

/** Resolves a URL written in the file at `from` against the folder (the site's root is `/`). */
export function resolveReference(raw: string, from: string): ResolvedReference {
  const url = cleanUrl(raw);
  if (url === '' || url.startsWith('#')) return { kind: 'none' };
  const scheme = schemeOf(url);
  if (scheme !== undefined)
    return inertSchemes.has(scheme) ? { kind: 'none' } : { kind: 'external' };
  if (isHostRelative(url)) return { kind: 'external' };
  // Browsers read `\` in the path of a web URL as `/`.
  const pathPart = url.replace(/[?#].*$/s, '').replaceAll('\\', '/');
  if (pathPart === '') return { kind: 'none' }; // `?query` alone: the same document
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return { kind: 'malformed' };
  }
  const joined = decoded.startsWith('/') ? decoded.slice(1) : directoryOf(from) + decoded;
  const segments: string[] = [];
  const parts = joined.split('/');
  for (const [i, part] of parts.entries()) {
    if (part === '..') {
      if (segments.pop() === undefined) return { kind: 'outside' };
    } else if (part !== '.' && (part !== '' || i === parts.length - 1)) segments.push(part);
  }
  const last = parts[parts.length - 1];
  const path = segments.join('/');
  const isFolder = (last === '.' || last === '..') && path !== '';
  return { kind: 'local', path: isFolder ? `${path}/` : path };
}

/**
 * The folder file a local path names: the file itself, or the `index.html` of a folder
 * (`about/`, `about` and the root alike, as a static server answers them).
 */
export function findTarget(folder: Folder, path: string): string | undefined {
  if (path !== '' && !path.endsWith('/') && folder.has(path)) return path;
  const index = (path === '' || path.endsWith('/') ? path : `${path}/`) + 'index.html';
  return folder.has(index) ? index : undefined;
}
