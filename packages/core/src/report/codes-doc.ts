import { checkNames } from './violation.js';
import { violationCodes, type CodeCatalog, type CodeEntry } from '../codes.js';
import { siteWarningCodes } from '../site/codes.js';

const intro: Record<string, string> = {
  archive: 'The ZIP itself: damage, encryption, entries that are not plain files.',
  limits: 'Entry count, sizes and compression ratio, counted while inflating.',
  names:
    'Paths: relative, NFC, `[a-z0-9._-]` segments, no `..`, no hidden files, no case collisions.',
  project:
    '`project.json`: present, valid JSON, valid against `svc://schemas/project/1` ([folder.md](folder.md); served at `/api/v1/schemas/project/1`), known medium.',
  formats:
    'Extensions allowed by the medium, content that matches its extension (an SVG is well-formed XML), UTF-8 text, images in bounds, no active SVG.',
  pages: 'Listed pages exist, parse, have a `<title>` and unique ids; every HTML file is listed.',
  links:
    'Every local `href`, `src`, `srcset`, CSS `url()` and `@import` resolves inside the folder; nothing external is loaded.',
  canvas: 'Media with a canvas: images under `canvas/` and page viewports match it.',
  site: 'Plain-site conversion (failures and warnings).',
  schema: 'JSON files of assets against their schema.',
};

const siteWarningsIntro =
  "Warnings of a successful conversion (the report's `site.warnings`): what was changed so the result passes the folder checks. They never fail a conversion.";

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** docs/checks.md: every violation code of the catalog, grouped by check, and the site warnings. */
export function violationCodesMarkdown(): string {
  const lines = [
    '# Checks and violation codes',
    '',
    'Generated from the code catalog of `packages/core` (`violationCodes`, and `siteWarningCodes`',
    'for the warnings of a plain-site conversion); do not edit by hand.',
    'A violation is `{check, code, severity, path, element?, line?, column?, message, expected?,',
    'actual?, suggestion?}`; `code` is stable, the message may be refined.',
    '',
  ];
  const entries = Object.entries(violationCodes as Record<string, CodeEntry>);
  const order = [...checkNames, 'site', 'schema'];
  const checks = [...new Set(entries.map(([code]) => code.slice(0, code.indexOf('.'))))].sort(
    (a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  const table = (rows: [string, CodeEntry][]) => {
    lines.push('| code | message | suggestion |', '|---|---|---|');
    for (const [code, entry] of rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      lines.push(`| \`${code}\` | ${cell(entry.message)} | ${cell(entry.suggestion ?? '')} |`);
    }
    lines.push('');
  };
  for (const check of checks) {
    lines.push(`## ${check}`, '');
    if (intro[check]) lines.push(intro[check], '');
    table(entries.filter(([c]) => c.startsWith(`${check}.`)));
    if (check === 'site') {
      lines.push('### site warnings', '', siteWarningsIntro, '');
      table(Object.entries(siteWarningCodes satisfies CodeCatalog));
    }
  }
  return lines.join('\n');
}
