import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertSite, siteWarningCodes, violationCodes } from '@galley/core';
import { violationCodesMarkdown } from '../src/report/codes-doc.js';
import { folderOf } from './checks/fixtures.js';

describe('docs/checks.md', () => {
  it('lists every code of the catalog and is current (`pnpm --filter @galley/core codes-doc`)', () => {
    const text = violationCodesMarkdown();
    for (const code of Object.keys(violationCodes)) expect(text).toContain(`\`${code}\``);
    const committed = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8');
    expect(committed).toBe(text);
  });

  it('lists every site warning with its message and suggestion, under the site check', () => {
    const text = violationCodesMarkdown();
    const warnings = text.slice(text.indexOf('### site warnings'), text.indexOf('## schema'));
    for (const [code, entry] of Object.entries(siteWarningCodes)) {
      expect(entry.suggestion.length).toBeGreaterThan(0);
      expect(warnings).toContain(`| \`${code}\` | ${entry.message} | ${entry.suggestion} |`);
    }
  });

  it('documents every warning a conversion gives, site.id_renamed among them', () => {
    const page = (body: string, title = '<title>T</title>') =>
      `<!doctype html><html><head>${title}</head><body>${body}</body></html>`;
    const converted = convertSite(
      folderOf({
        'index.html': page('<p id="a"></p><p id="a"></p><a href="gone.html">x</a>', ''),
        'About Us.html': page('<a href="index.html">home</a>'),
        'media.html': page(
          '<iframe src="https://video.example/embed/1"></iframe><script src="https://cdn.example/a.js"></script><script src="gone.js"></script>',
        ),
      }),
      // The warnings of the choices too (what they remove instead of refusing the site).
      { dropExternal: true, dropMissing: true },
    );
    if (!converted.ok) throw new Error(JSON.stringify(converted.report.violations));
    const codes = [...new Set(converted.site.warnings.map((w) => w.code))].sort();
    expect(codes).toEqual(Object.keys(siteWarningCodes).sort());
    const renamed = converted.site.warnings.find((w) => w.code === 'site.id_renamed');
    expect(renamed).toMatchObject({ path: 'index.html', target: 'a-2', actual: 'a' });
    const text = violationCodesMarkdown();
    for (const code of codes) expect(text).toContain(`\`${code}\``);
  });
});
