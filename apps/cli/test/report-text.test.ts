// The human check report's typed values: reports of real folders made by the core's checks,
// printed as `galley check` prints them (no colours), one violation at a time.
import { describe, expect, it } from 'vitest';
import { checkFolder, violation } from '@galley/core';
import type { CheckReport, Violation } from '@galley/core';
import { plain } from '../src/lib/paint.js';
import { checkReportText } from '../src/lib/report-text.js';
import { folderOf, page, validProject } from './support/galley.js';
import type { Files } from './support/galley.js';

const reportOf = (files: Files) => checkFolder(folderOf(files));

/** The lines printed for the one violation of `report` with `code`: place, message, values… */
function linesFor(report: CheckReport, code: string): string[] {
  const found = report.violations.filter((v) => v.code === code);
  expect(found).toHaveLength(1);
  const lines = checkReportText(report, plain, 'folder').split('\n');
  const at = lines.findIndex((line) => line.includes(`  ${code}`));
  const end = lines.findIndex((line, i) => i > at && !line.startsWith(' '.repeat(11)));
  return lines.slice(at, end < 0 ? undefined : end).map((line) => line.trim());
}

const alone = (v: Violation): CheckReport => ({
  checks: { [v.check]: 'failed' },
  violations: [v],
  contracts: { 'media-contract': '1.0', 'svc-contract': '1.0' },
});

describe('typed values in the human report', () => {
  it('a value is shown even when its text occurs inside the catalog message', () => {
    // "Another element of the page has the same id." contains "the".
    const report = reportOf(
      validProject({ 'about/index.html': page('About', '<p id="the">a</p><p id="the">b</p>') }),
    );
    const lines = linesFor(report, 'pages.duplicate_id');
    expect(lines[1]).toBe('Another element of the page has the same id.');
    expect(lines[2]).toBe('found the');
  });

  it('a missing file read the same as written and as resolved is named once', () => {
    const report = reportOf(validProject({ 'about/index.html': page('A', '<img src="x.png">') }));
    const missing = report.violations.find((v) => v.code === 'links.missing');
    expect(missing).toMatchObject({ expected: 'about/x.png', actual: 'x.png' });
    expect(linesFor(report, 'links.missing')[2]).toBe('expected about/x.png, found x.png');

    const same = reportOf(validProject({ 'index.html': page('Home', '<img src="media/a.mp3">') }));
    expect(same.violations.find((v) => v.code === 'links.missing')).toMatchObject({
      expected: 'media/a.mp3',
      actual: 'media/a.mp3',
    });
    const lines = linesFor(same, 'links.missing');
    expect(lines[2]).toBe('found media/a.mp3');
    expect(lines[3]).toMatch(/^→ /); // then the suggestion: the value is said only once
  });

  it('a value the message written for the finding states is not repeated', () => {
    const project = JSON.parse(validProject()['project.json'] as string) as { title: string };
    project.title = 'Shop\u0007';
    const report = reportOf(validProject({ 'project.json': JSON.stringify(project) }));
    const lines = linesFor(report, 'project.title_control');
    expect(lines[1]).toBe('project.json /title contains the control character U+0007.');
    expect(lines[2]).toMatch(/^→ /);
  });

  it('a value inside a longer word or path of such a message is still shown', () => {
    const v = violation('links.external', {
      path: 'index.html',
      actual: 'a.png',
      message: 'The page loads img/a.png.png from elsewhere.',
    });
    expect(linesFor(alone(v), 'links.external')[2]).toBe('found a.png');
  });
});
