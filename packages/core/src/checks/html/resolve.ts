import type { Folder } from '../../report/folder.js';

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

/** Resolves a URL written in the file at `from` against the folder (the site's root is `/`). */
export function resolveReference(raw: string, from: string): ResolvedReference {
  const url = raw.trim();
  if (url === '' || url.startsWith('#')) return { kind: 'none' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined)
    return inertSchemes.has(scheme) ? { kind: 'none' } : { kind: 'external' };
  if (url.startsWith('//') || url.startsWith('\\\\')) return { kind: 'external' };
  const pathPart = url.replace(/[?#].*$/s, '');
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
