import { describe, expect, it } from 'vitest';
import { isZip, readZip, writeZip } from '@galley/core';
import { craftZip, te } from './craft.js';

const file = { name: 'a.txt', content: te.encode('a') };
const stub = te.encode('MZ\x90\x00 a self-extracting program stub');

/** What readZip says about the same bytes: anything but `archive.not_zip` is an archive. */
const readAsArchive = (bytes: Uint8Array) =>
  !readZip(bytes).violations.some((v) => v.code === 'archive.not_zip');

describe('isZip: exactly the bytes readZip reads as an archive, damaged or not', () => {
  const samples = {
    'a plain archive': craftZip([file]),
    'an empty archive': writeZip(new Map()),
    'data before the archive, offsets adjusted': craftZip([file], { prefix: stub }),
    'data before the archive, offsets unadjusted': craftZip([file], {
      prefix: stub,
      unadjusted: true,
    }),
    'data after the archive': craftZip([file], { suffix: stub }),
    'a truncated archive': craftZip([file]).subarray(0, 40),
  };
  for (const [name, bytes] of Object.entries(samples)) {
    it(`takes ${name} for a ZIP`, () => {
      expect(isZip(bytes)).toBe(true);
      expect(readAsArchive(bytes)).toBe(true);
    });
  }

  const others = {
    'an HTML page': te.encode('<!doctype html><title>Home</title><p>Not a ZIP at all.</p>'),
    'an archive whose end record is cut off': craftZip([file], { prefix: stub }).subarray(0, 60),
  };
  for (const [name, bytes] of Object.entries(others)) {
    it(`does not take ${name} for a ZIP`, () => {
      expect(isZip(bytes)).toBe(false);
      expect(readAsArchive(bytes)).toBe(false);
    });
  }

  it('does not take bytes too short for an end record for a ZIP, whatever they start with', () => {
    expect(isZip(craftZip([file]).subarray(0, 21))).toBe(false);
    expect(isZip(te.encode('PK\x05\x06'))).toBe(false);
  });
});
