import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { formatOfPath } from '../media/catalog.js';
import type { FolderCheck, FolderContext } from './context.js';
import { maxNesting, type PageFacts } from '../html/page.js';

/** Findings inside one page: a non-empty `<title>`, ids used once. */
function pageContentViolations(path: string, page: PageFacts): Violation[] {
  const found: Violation[] = [];
  if (page.tooDeep) found.push(violation('pages.nesting', { path, expected: maxNesting }));
  const { title } = page;
  if (title === undefined || title.empty)
    found.push(
      violation('pages.title_missing', { path, ...(title ? page.placeOf(title.node) : {}) }),
    );
  for (const { node, id } of page.duplicateIds)
    found.push(violation('pages.duplicate_id', { path, ...page.placeOf(node), actual: id }));
  return found;
}

function listingViolations(
  context: FolderContext,
  files: readonly string[],
  urls: readonly string[],
) {
  const found: Violation[] = [];
  const listed = new Set<string>();
  const urlOwner = new Map<string, string>();
  files.forEach((file, i) => {
    if (listed.has(file)) found.push(violation('pages.listed_twice', { path: file }));
    listed.add(file);
    const url = urls[i]!;
    const owner = urlOwner.get(url);
    if (owner !== undefined && owner !== file)
      found.push(violation('pages.url_conflict', { path: file, actual: url }));
    else urlOwner.set(url, file);
  });
  for (const path of context.paths)
    if (formatOfPath(path) === 'html' && !listed.has(path))
      found.push(violation('pages.unlisted', { path }));
  return { found, listed: [...listed] };
}

/**
 * `pages`: every page project.json lists exists, parses (UTF-8), has a `<title>` and unique
 * ids; every HTML file is listed, once, with its own public URL.
 */
export const pagesCheck: FolderCheck = {
  name: 'pages',
  run(context) {
    if (!context.project.usable) return { violations: [], unusable: true };
    const { pages } = context.project.project;
    const { found, listed } = listingViolations(
      context,
      pages.map((p) => p.file),
      pages.map((p) => p.public_url),
    );
    for (const path of listed) {
      if (!context.folder.has(path)) found.push(violation('pages.missing', { path }));
      else {
        const page = context.page(path);
        if (page === undefined) found.push(violation('pages.parse', { path }));
        else found.push(...pageContentViolations(path, page));
      }
    }
    return { violations: found };
  },
};
