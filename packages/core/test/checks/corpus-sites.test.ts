import { describe, expect, it } from 'vitest';
import { checkFolder, checkZip, writeZip, type CheckReport } from '@galley/core';
import { corpus, corpusMissing, readTree } from './corpus.js';
import { utf8 } from './fixtures.js';

const why = corpusMissing('sites/');
if (why) console.warn(`skipped: ${why}`);

/** A corpus site made a web project: project.json listing every HTML file as a page. */
function asProject(site: string): Map<string, Uint8Array> {
  const files = readTree(new URL(`sites/${site}/`, corpus));
  const pages = [...files.keys()].filter((p) => p.endsWith('.html'));
  const project = {
    format: 1,
    title: site,
    media: { id: 'web', version: 1 },
    pages: pages.map((file) => ({ file, title: file, public_url: `/${file}` })),
  };
  files.set('project.json', utf8(JSON.stringify(project)));
  return files;
}

const failing = (report: CheckReport) =>
  Object.entries(report.checks)
    .filter(([, outcome]) => outcome !== 'passed')
    .map(([name, outcome]) => `${name}:${outcome}`);
const countCodes = (report: CheckReport) => {
  const counts: Record<string, number> = {};
  for (const v of report.violations) counts[v.code] = (counts[v.code] ?? 0) + 1;
  return counts;
};

/** Expected outcome per site: the checks that do not pass, and how often each code occurs. */
const expected: Record<string, { failing: string[]; codes: Record<string, number> }> = {
  // Google Fonts from a CDN; the audio and main.js were left out of the corpus on purpose.
  'mdn-accessibility-assessment': {
    failing: ['links:failed'],
    codes: { 'links.external': 2, 'links.missing': 4 },
  },
  'mdn-backgrounds': { failing: [], codes: {} },
  'mdn-css-grids': { failing: [], codes: {} },
  'mdn-html-head': { failing: ['links:failed'], codes: { 'links.missing': 1 } },
  'mdn-responsive-images': { failing: [], codes: {} },
  // A YouTube iframe and Google Fonts; mdn.svg carries a DOCTYPE.
  'mdn-splash-page': {
    failing: ['formats:failed', 'links:failed'],
    codes: { 'formats.svg_active': 1, 'links.external': 2 },
  },
  // Folders with spaces, SVG fonts with DOCTYPEs, font files left out, jQuery from a CDN.
  'mdn-typesetting-homepage': {
    failing: ['names:failed', 'formats:failed', 'links:failed'],
    codes: {
      'names.characters': 7,
      'formats.svg_active': 4,
      'links.missing': 23,
      'links.external': 2,
    },
  },
  // Bootstrap, Font Awesome and fonts from CDNs; js/scripts.js was left out.
  'startbootstrap-agency': {
    failing: ['links:failed'],
    codes: { 'links.external': 5, 'links.missing': 1 },
  },
};

describe.skipIf(!!why)('corpus sites, zipped in memory and checked', () => {
  for (const [site, outcome] of Object.entries(expected)) {
    it(site, () => {
      const folder = asProject(site);
      const report = checkZip(writeZip(folder));
      expect(failing(report)).toEqual(outcome.failing);
      expect(countCodes(report)).toEqual(outcome.codes);
      // The ZIP round trip changes nothing: the same report as the folder itself.
      expect(JSON.stringify(report)).toBe(JSON.stringify(checkFolder(folder)));
    });
  }

  it('places findings in the real pages', () => {
    const report = checkFolder(asProject('startbootstrap-agency'));
    expect(report.violations).toContainEqual(
      expect.objectContaining({
        path: 'index.html',
        code: 'links.missing',
        element: '@384',
        line: 603,
        column: 9,
        actual: 'js/scripts.js',
      }),
    );
  });

  it('as plain sites (no project.json), only the project check can fail', () => {
    const report = checkFolder(readTree(new URL('sites/mdn-css-grids/', corpus)));
    expect(failing(report)).toEqual([
      'project:failed',
      'formats:unchecked',
      'pages:unchecked',
      'canvas:unchecked',
    ]);
  });
});
