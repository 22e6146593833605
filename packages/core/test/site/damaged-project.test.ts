import { describe, expect, it } from 'vitest';
import {
  checkZip,
  convertSite,
  isPlainSiteZip,
  readZip,
  writeZip,
  type CheckReport,
} from '@galley/core';
import { projectJson } from '../checks/fixtures.js';
import { patchEntry } from '../zip/patch.js';
import { folderOf, page } from './helpers.js';

/** What the service answers for an uploaded ZIP (intakeZip): a site's report or the folder's. */
function intake(zip: Uint8Array): CheckReport | 'converted' {
  const read = readZip(zip);
  if (!isPlainSiteZip(zip, read)) return checkZip(zip);
  const converted = convertSite(read.folder, { preViolations: read.violations });
  return converted.ok ? 'converted' : converted.report;
}

const found = (report: CheckReport | 'converted') =>
  report === 'converted' ? [] : report.violations.map((v) => [v.check, v.code, v.path]);

/** The damages of decisions §4 that make one entry unreadable, as an auditor plants them. */
const damages = {
  'CRC-32 changed in both headers': (zip: Uint8Array, name: string) =>
    patchEntry(zip, name, 'crc', (crc) => crc ^ 0xffffffff),
  'the entry encrypted': (zip: Uint8Array, name: string) =>
    patchEntry(zip, name, 'flags', (flags) => flags | 0x0001),
  'the local header disagreeing with the central one': (zip: Uint8Array, name: string) =>
    patchEntry(zip, name, 'crc', (crc) => crc ^ 0xffffffff, ['local']),
};
const codeOf: Record<keyof typeof damages, string> = {
  'CRC-32 changed in both headers': 'archive.crc_mismatch',
  'the entry encrypted': 'archive.encrypted',
  'the local header disagreeing with the central one': 'archive.header_mismatch',
};

describe('a ZIP that lists project.json is a project folder, readable or not (rules 1, decisions §5, §8)', () => {
  const project = writeZip(folderOf({ 'project.json': projectJson(), 'index.html': page('Home') }));

  it('is a valid project folder undamaged', () => {
    expect(isPlainSiteZip(project, readZip(project))).toBe(false);
    expect(found(checkZip(project))).toEqual([]);
  });

  for (const [damage, plant] of Object.entries(damages)) {
    const code = codeOf[damage as keyof typeof damages];

    it(`reports a damaged project.json (${damage}) with the archive check, not site.read`, () => {
      const zip = plant(project, 'project.json');
      const read = readZip(zip);
      expect(read.folder.has('project.json')).toBe(false);
      expect(isPlainSiteZip(zip, read)).toBe(false);
      const report = intake(zip);
      if (report === 'converted') return expect.fail('taken for a plain site');
      expect(report.checks.archive).toBe('failed');
      expect(report.checks).not.toHaveProperty('site');
      expect(found(report)).toContainEqual(['archive', code, 'project.json']);
      expect(report.violations.some((v) => v.code.startsWith('site.'))).toBe(false);
    });

    it(`answers the same damage on index.html alike (${damage})`, () => {
      const report = intake(plant(project, 'index.html'));
      if (report === 'converted') return expect.fail('taken for a plain site');
      expect(report.checks.archive).toBe('failed');
      expect(found(report)).toContainEqual(['archive', code, 'index.html']);
    });
  }

  it('finds project.json inside the one wrapping folder, and at the root beside it', () => {
    const wrapped = writeZip(
      folderOf({ 'site/project.json': projectJson(), 'site/index.html': page('Home') }),
    );
    const damagedInside = damages['CRC-32 changed in both headers'](wrapped, 'site/project.json');
    expect(isPlainSiteZip(damagedInside, readZip(damagedInside))).toBe(false);
    expect(found(intake(damagedInside))).toContainEqual([
      'archive',
      'archive.crc_mismatch',
      'site/project.json',
    ]);

    const beside = writeZip(
      folderOf({ 'project.json': projectJson(), 'site/index.html': page('Home') }),
    );
    const damagedBeside = damages['the entry encrypted'](beside, 'project.json');
    expect(isPlainSiteZip(damagedBeside, readZip(damagedBeside))).toBe(false);
  });

  it('still takes a site for a site: project.json deeper down, or another file damaged', () => {
    const site = writeZip(
      folderOf({
        'index.html': page('Home'),
        'notes.txt': 'notes',
        'docs/project.json': '{}',
      }),
    );
    const deeper = damages['CRC-32 changed in both headers'](site, 'docs/project.json');
    expect(isPlainSiteZip(deeper, readZip(deeper))).toBe(true);
    const other = damages['CRC-32 changed in both headers'](site, 'notes.txt');
    expect(isPlainSiteZip(other, readZip(other))).toBe(true);
    // A plain site's unreadable entry is site.read (decisions §8).
    expect(found(intake(other))).toEqual([['site', 'site.read', 'notes.txt']]);
  });
});
