import { describe, expect, it } from 'vitest';
import {
  checkZip,
  convertSite,
  convertSiteZip,
  isPlainSiteZip,
  isZip,
  readZip,
  writeZip,
  type CheckReport,
} from '@galley/core';
import { projectJson } from '../checks/fixtures.js';
import { craftZip, te, type Crafted } from '../zip/craft.js';
import { patchEntry } from '../zip/patch.js';
import { folderOf, page } from './helpers.js';

/** What the service answers for an uploaded ZIP (intakeZip): a site's report or the folder's. */
function intake(zip: Uint8Array): CheckReport | 'converted' {
  if (!isZip(zip)) return checkZip(zip);
  const read = readZip(zip);
  if (!isPlainSiteZip(zip, read)) return checkZip(zip);
  const converted = convertSite(read.folder, { preViolations: read.violations });
  return converted.ok ? 'converted' : converted.report;
}

/** Asserts the 422 body of a plain site that cannot be converted; returns its violations. */
function siteFailure(zip: Uint8Array) {
  const report = intake(zip);
  if (report === 'converted') return expect.fail('converted');
  expect(report.checks).toEqual({ site: 'failed' });
  // The CLI's `galley convert` reads the same ZIP into the same answer.
  const cli = convertSiteZip(zip);
  if (cli.ok) return expect.fail('converted by convertSiteZip');
  expect(cli.report).toEqual(report);
  return report.violations;
}

const found = (violations: CheckReport['violations']) =>
  violations.map((v) => [v.check, v.code, v.path]);

const index: Crafted = { name: 'index.html', content: te.encode(page('Home')) };
const text = (name: string): Crafted => ({ name, content: te.encode('text') });
const junk = te.encode('#!/bin/sh\n');

/** Entry damages of decisions §4 that leave the central directory readable. */
const damages = {
  'CRC-32 changed in both headers': {
    plant: (zip: Uint8Array, name: string) => patchEntry(zip, name, 'crc', (crc) => crc ^ 1),
    code: 'archive.crc_mismatch',
  },
  'the entry encrypted': {
    plant: (zip: Uint8Array, name: string) => patchEntry(zip, name, 'flags', (f) => f | 1),
    code: 'archive.encrypted',
  },
  'the local header disagreeing with the central one': {
    plant: (zip: Uint8Array, name: string) =>
      patchEntry(zip, name, 'crc', (crc) => crc ^ 1, ['local']),
    code: 'archive.header_mismatch',
  },
} as const;

describe('a plain site whose only entry is damaged is still a plain site (rule 1, decisions §8)', () => {
  for (const [damage, { plant, code }] of Object.entries(damages)) {
    it(`answers index.html alone with ${damage} as site.read`, () => {
      const zip = plant(writeZip(folderOf({ 'index.html': page('Home') })), 'index.html');
      const read = readZip(zip);
      expect(read.folder.size).toBe(0);
      expect(isPlainSiteZip(zip, read)).toBe(true);
      const violations = siteFailure(zip);
      expect(found(violations)).toEqual([['site', 'site.read', 'index.html']]);
      expect(violations[0]?.message).toContain(code);
    });
  }

  it('answers a damaged index.html beside readable files, and inside a wrapping folder', () => {
    const plant = damages['CRC-32 changed in both headers'].plant;
    const beside = writeZip(folderOf({ 'index.html': page('Home'), 'a.css': 'p{}' }));
    const damaged = plant(beside, 'index.html');
    expect([...readZip(damaged).folder.keys()]).toEqual(['a.css']);
    expect(found(siteFailure(damaged))).toEqual([['site', 'site.read', 'index.html']]);

    const wrapped = writeZip(folderOf({ 'site/index.html': page('Home') }));
    expect(found(siteFailure(plant(wrapped, 'site/index.html')))).toEqual([
      ['site', 'site.read', 'site/index.html'],
    ]);
  });
});

describe('a plain site in a damaged archive is answered with site.read on the damage', () => {
  it('reports an entry on another disk on that entry, before or after index.html', () => {
    const other = { ...text('a.txt'), central: { diskStart: 1 } };
    for (const entries of [
      [other, index],
      [index, other],
    ]) {
      const zip = craftZip(entries);
      expect(readZip(zip).violations.map((v) => [v.code, v.path])).toEqual([
        ['archive.multi_disk', 'a.txt'],
      ]);
      const violations = siteFailure(zip);
      expect(found(violations)).toEqual([['site', 'site.read', 'a.txt']]);
      expect(violations[0]?.message).toContain('archive.multi_disk');
    }
    const onIndex = craftZip([{ ...index, central: { diskStart: 1 } }]);
    expect(found(siteFailure(onIndex))).toEqual([['site', 'site.read', 'index.html']]);
  });

  it('reports an archive split over disks at the archive level', () => {
    const zip = craftZip([index], { end: { disk: 1, directoryDisk: 1 } });
    expect(found(siteFailure(zip))).toEqual([['site', 'site.read', '']]);
  });

  it('reports data before the archive at the archive level, offsets adjusted or not', () => {
    for (const unadjusted of [false, true]) {
      const zip = craftZip([index, text('a.txt')], { prefix: junk, unadjusted });
      expect(isZip(zip)).toBe(true);
      const violations = siteFailure(zip);
      expect(found(violations)).toEqual([['site', 'site.read', '']]);
      expect(violations[0]?.message).toContain('archive.data_before_archive');
    }
  });
});

describe('what stays answered by the archive and folder checks', () => {
  it('answers bytes that are no ZIP with the archive check', () => {
    const html = te.encode(page('Home'));
    expect(isZip(html)).toBe(false);
    const report = intake(html);
    if (report === 'converted') return expect.fail('converted');
    expect(report.checks.archive).toBe('failed');
    expect(report.checks).not.toHaveProperty('site');
  });

  it('keeps a damaged archive that lists project.json a project folder', () => {
    const project = [{ name: 'project.json', content: te.encode(projectJson()) }, index];
    const cases = {
      'archive.multi_disk': craftZip([{ ...project[0]!, central: { diskStart: 1 } }, index]),
      'archive.data_before_archive': craftZip(project, { prefix: junk }),
    };
    for (const [code, zip] of Object.entries(cases)) {
      expect(isPlainSiteZip(zip, readZip(zip))).toBe(false);
      const report = intake(zip);
      if (report === 'converted') return expect.fail('converted');
      expect(report.checks.archive).toBe('failed');
      expect(report.checks).not.toHaveProperty('site');
      expect(report.violations.map((v) => v.code)).toContain(code);
    }
  });

  it('does not take a damaged archive without index.html for a site', () => {
    const plant = damages['CRC-32 changed in both headers'].plant;
    const zip = plant(writeZip(folderOf({ 'home.html': page('Home') })), 'home.html');
    expect(isPlainSiteZip(zip, readZip(zip))).toBe(false);
    const deeper = plant(writeZip(folderOf({ 'a/b/index.html': page('Home') })), 'a/b/index.html');
    expect(isPlainSiteZip(deeper, readZip(deeper))).toBe(false);
  });
});
