import { siteWarningCodes, type SiteWarningCode } from './codes.js';
import type { SiteFile } from './files.js';
import { attribute, escapeText, type Edit } from './edits.js';
import type { SiteWarning } from './report.js';

/** A warning of the conversion report, its text from the catalog. */
export function siteWarning(
  code: SiteWarningCode,
  path: string,
  target: string | null,
  actual: string | null = null,
): SiteWarning {
  return { code, path, target, actual, message: siteWarningCodes[code].message };
}

export const maxTitleLength = 200;

export interface PageFixes {
  readonly title: string;
  readonly edits: readonly Edit[];
  readonly warnings: readonly SiteWarning[];
}

/**
 * What a page needs to pass the `pages` check: a non-empty `<title>` (from its first `<h1>`, else
 * `fallback`) and unique ids (a repeated id gets `-2`, `-3`… in the order it appears).
 */
export function pageFixes(file: SiteFile, fallback: string): PageFixes {
  const scan = file.page;
  if (scan === undefined) return { title: fallback, edits: [], warnings: [] };
  const edits: Edit[] = [];
  const warnings: SiteWarning[] = [];
  let title = cut(scan.title?.text ?? '');
  if (title === '') {
    title = cut(scan.heading) || fallback;
    const text = escapeText(title);
    edits.push(
      scan.title
        ? { ...scan.title.content, text }
        : { start: scan.titleAt, end: scan.titleAt, text: `<title>${text}</title>` },
    );
    warnings.push(siteWarning('site.title_missing', file.input, title));
  }
  const taken = new Set(scan.ids.map((id) => id.value));
  const seen = new Set<string>();
  for (const id of scan.ids) {
    if (!seen.has(id.value)) {
      seen.add(id.value);
      continue;
    }
    let n = 2;
    while (taken.has(`${id.value}-${n}`)) n++;
    const renamed = `${id.value}-${n}`;
    taken.add(renamed);
    edits.push({ ...id.span, text: attribute('id', renamed) });
    warnings.push(siteWarning('site.id_renamed', file.input, renamed, id.value));
  }
  return { title, edits, warnings };
}

function cut(title: string): string {
  return [...title].slice(0, maxTitleLength).join('').trim();
}
