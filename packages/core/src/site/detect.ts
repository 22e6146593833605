import type { Folder } from '../report/folder.js';

/** Files every plain site may carry that are never part of it (decisions §5), matched by name. */
export function isIgnoredByName(path: string): boolean {
  return path.split('/').some((segment, index, segments) => {
    if (segment === '__MACOSX' || segment.startsWith('.')) return true;
    return index === segments.length - 1 && segment.toLowerCase() === 'thumbs.db';
  });
}

/** Where the site sits inside the input, and what was set aside by name before looking. */
export interface SiteLayout {
  /** `''`, or the one wrapping folder with its slash (`my-site/`), stripped from every path. */
  readonly root: string;
  /** Input paths of the site's files (wrapping folder included), sorted. */
  readonly files: readonly string[];
  /** Input paths left out by name (`__MACOSX/`, `.DS_Store`, `Thumbs.db`, dot-files), sorted. */
  readonly ignored: readonly string[];
}

export type SiteDetection =
  | { readonly ok: true; readonly layout: SiteLayout }
  | { readonly ok: false; readonly reason: 'project_folder' | 'no_index' };

export interface DetectSiteOptions {
  /**
   * The entry page of a site without `index.html`, by its path in the site (inside the one
   * wrapping folder when there is one): it stands where `index.html` would.
   */
  readonly index?: string;
}

/**
 * Decisions §5: no `project.json`, and `index.html` (or the named entry page) at the root or
 * inside one single top-level folder. Entries ignored by name do not count, so a `__MACOSX/`
 * beside the folder is fine.
 */
export function detectSite(folder: Folder, options: DetectSiteOptions = {}): SiteDetection {
  const files: string[] = [];
  const ignored: string[] = [];
  for (const path of folder.keys()) {
    if (path.endsWith('/')) continue;
    (isIgnoredByName(path) ? ignored : files).push(path);
  }
  files.sort();
  ignored.sort();
  const found = siteRootOf(files, options);
  if (!found.ok) return found;
  return { ok: true, layout: { root: found.root, files, ignored } };
}

/** True when the folder is a plain site that `convertSite` accepts. */
export function isPlainSite(folder: Folder, options: DetectSiteOptions = {}): boolean {
  return detectSite(folder, options).ok;
}

type SiteRoot =
  | { readonly ok: true; readonly root: string }
  | { readonly ok: false; readonly reason: 'project_folder' | 'no_index' };

/** What decides a wrapping folder: whether it holds `index.html` and `project.json`. */
interface Top {
  index: boolean;
  project: boolean;
}

/**
 * The site's root from its paths alone, read one at a time and keeping only what decides it, so
 * that the names of an archive too large to read can be judged as well (`site/zip.ts`).
 */
export function siteRootOf(paths: Iterable<string>, options: DetectSiteOptions = {}): SiteRoot {
  const entry = options.index ?? 'index.html';
  let rootIndex = false;
  let rootProject = false;
  let rootFile = false;
  // Two wrapping folders already mean no site: a third is never kept.
  const tops = new Map<string, Top>();
  for (const path of paths) {
    if (path.endsWith('/') || isIgnoredByName(path)) continue;
    // A named entry page may sit in a folder (`pages/home.html`).
    rootIndex ||= path === entry;
    const slash = path.indexOf('/');
    if (slash < 0) {
      rootFile = true;
      rootProject ||= path === 'project.json';
      continue;
    }
    const name = path.slice(0, slash + 1);
    let top = tops.get(name);
    if (top === undefined) {
      if (tops.size >= 2) continue;
      top = { index: false, project: false };
      tops.set(name, top);
    }
    const rest = path.slice(slash + 1);
    top.index ||= rest === entry;
    top.project ||= rest === 'project.json';
  }
  if (rootProject) return { ok: false, reason: 'project_folder' };
  if (rootIndex) return { ok: true, root: '' };
  const [only] = tops;
  if (rootFile || tops.size !== 1 || only === undefined || !only[1].index)
    return { ok: false, reason: 'no_index' };
  if (only[1].project) return { ok: false, reason: 'project_folder' };
  return { ok: true, root: only[0] };
}
