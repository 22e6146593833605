// POST /projects/folder with a plain site (no project.json, index.html) in a damaged archive: it
// is a plain site by rule 1 whether or not any entry survives reading, so the damage is
// `site.read` with `checks: {site: "failed"}` (decisions §8), never the folder checks' `archive.*`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers.js';
import { call, startV1Server, zipForm, zipOf } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const page = '<!doctype html><html><head><title>Home</title></head><body><p>Hi</p></body></html>';

function site(files: Record<string, string>): Uint8Array {
  return zipOf(new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)])));
}

/** Calls `change` with each central directory record of a writeZip archive (no comment). */
function eachRecord(zip: Uint8Array, change: (view: DataView, at: number, name: string) => void) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  for (let at = view.getUint32(end + 16, true); at < end;) {
    const nameLength = view.getUint16(at + 28, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    const next =
      at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    change(view, at, name);
    at = next;
  }
}

/** One entry's CRC-32 changed in both headers: the archive agrees with itself, not with the data. */
function badCrc(zip: Uint8Array, file: string): Uint8Array {
  const out = zip.slice();
  eachRecord(out, (view, at, name) => {
    if (name !== file) return;
    const local = view.getUint32(at + 42, true);
    view.setUint32(local + 14, ~view.getUint32(local + 14, true) >>> 0, true);
    view.setUint32(at + 16, ~view.getUint32(at + 16, true) >>> 0, true);
  });
  return out;
}

/** One entry's central record saying it starts on disk 1. */
function onDiskOne(zip: Uint8Array, file: string): Uint8Array {
  const out = zip.slice();
  eachRecord(out, (view, at, name) => {
    if (name === file) view.setUint16(at + 34, 1, true);
  });
  return out;
}

/** Junk before the first local header, every offset shifted so the directory stays consistent. */
function junkBefore(zip: Uint8Array, junk = 10): Uint8Array {
  const out = new Uint8Array(zip.length + junk);
  out.fill(0x23, 0, junk);
  out.set(zip, junk);
  eachRecord(out.subarray(junk), (view, at) => {
    view.setUint32(at + 42, view.getUint32(at + 42, true) + junk, true);
  });
  const view = new DataView(out.buffer);
  view.setUint32(out.length - 22 + 16, view.getUint32(out.length - 22 + 16, true) + junk, true);
  return out;
}

const cases = {
  'its only entry, index.html, with a bad CRC-32': {
    zip: () => badCrc(site({ 'index.html': page }), 'index.html'),
    path: 'index.html',
    code: 'archive.crc_mismatch',
  },
  'an extra entry on disk 1': {
    zip: () => onDiskOne(site({ 'index.html': page, 'a.txt': 'a' }), 'a.txt'),
    path: 'a.txt',
    code: 'archive.multi_disk',
  },
  'junk before the archive': {
    zip: () => junkBefore(site({ 'index.html': page })),
    path: '',
    code: 'archive.data_before_archive',
  },
};

describe('a plain site in a damaged archive is answered with site.read', () => {
  for (const [name, { zip, path, code }] of Object.entries(cases)) {
    it(`answers ${name} with site.read on "${path}"`, async () => {
      const answer = await call(s, 'POST', '/projects/folder', {
        token: s.token,
        client: 'creator',
        form: zipForm(zip()),
      });
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('folder_check_failed');
      expect(answer.body.checks).toEqual({ site: 'failed' });
      expect(answer.body.violations).toEqual([
        expect.objectContaining({ check: 'site', code: 'site.read', path }),
      ]);
      expect(JSON.stringify(answer.body.violations)).toContain(code);
    });
  }
});
