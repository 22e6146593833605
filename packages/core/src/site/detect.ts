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

/**
 * Decisions §5: no `project.json`, and `index.html` at the root or inside one single top-level
 * folder. Entries ignored by name do not count, so a `__MACOSX/` beside the folder is fine.
 */
export function detectSite(folder: Folder): SiteDetection {
  const files: string[] = [];
  const ignored: string[] = [];
  for (const path of folder.keys()) {
    if (path.endsWith('/')) continue;
    (isIgnoredByName(path) ? ignored : files).push(path);
  }
  files.sort();
  ignored.sort();
  const paths = new Set(files);
  if (paths.has('project.json')) return { ok: false, reason: 'project_folder' };
  const root = siteRoot(paths);
  if (root === undefined) return { ok: false, reason: 'no_index' };
  if (paths.has(`${root}project.json`)) return { ok: false, reason: 'project_folder' };
  return { ok: true, layout: { root, files, ignored } };
}

function siteRoot(files: ReadonlySet<string>): string | undefined {
  if (files.has('index.html')) return '';
  const tops = new Set<string>();
  for (const path of files) {
    const slash = path.indexOf('/');
    if (slash < 0) return undefined;
    tops.add(path.slice(0, slash + 1));
  }
  const [only] = tops;
  return tops.size === 1 && only !== undefined && files.has(`${only}index.html`) ? only : undefined;
}

/** True when the folder is a plain site that `convertSite` accepts. */
export function isPlainSite(folder: Folder): boolean {
  return detectSite(folder).ok;
}
