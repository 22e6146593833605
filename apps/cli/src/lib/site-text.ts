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

/** What `galley convert --vendor` fetched (and where it put it) and what it could not fetch. */
export interface VendorReport {
  readonly fetched: readonly { url: string; path: string; bytes: number }[];
  readonly failed: readonly { url: string; reason: string }[];
}

export function vendorReportText(vendor: VendorReport, paint: Paint): string {
  const lines = [paint.bold(`Fetched (${vendor.fetched.length})`)];
  for (const f of vendor.fetched)
    lines.push(`  ${f.url}  ${paint.dim(`→ ${f.path}, ${f.bytes} bytes`)}`);
  if (vendor.failed.length > 0) {
    lines.push('', paint.bold(`Not fetched (${vendor.failed.length})`));
    for (const f of vendor.failed) lines.push(`  ${paint.red('✗')} ${f.url}  ${f.reason}`);
  }
  return lines.join('\n');
}
