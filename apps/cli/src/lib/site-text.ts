import type { v1 } from '@galley/core';
import type { Paint } from './paint.js';

/** The conversion report of a plain site for people: pages and their URLs, ignored files, warnings. */
export function siteReportText(site: v1.SiteReport, paint: Paint): string {
  const lines: string[] = [];
  const width = Math.max(0, ...site.pages.map((p) => p.file.length));
  lines.push(paint.bold(`Pages (${site.pages.length})`));
  for (const page of site.pages)
    lines.push(`  ${page.file.padEnd(width)}  ${paint.cyan(page.public_url)}`);
  if (site.ignored.length > 0) {
    lines.push('', paint.bold(`Ignored (${site.ignored.length})`));
    for (const path of site.ignored) lines.push(`  ${paint.dim(path)}`);
  }
  if (site.warnings.length > 0) {
    lines.push('', paint.bold(`Warnings (${site.warnings.length})`));
    for (const w of site.warnings) {
      const target = w.target === null ? '' : ` → ${w.target}`;
      lines.push(
        `  ${paint.yellow('warning')}  ${paint.bold(w.path)}${target}  ${paint.dim(w.code)}`,
      );
      lines.push(`           ${w.message}`);
    }
  }
  return lines.join('\n');
}
