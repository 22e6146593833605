// POST /projects/folder with a project folder whose project.json is damaged: the ZIP lists
// project.json, so it is a project folder (rule 1), and the damage is the `archive` check's
// (decisions §4, §8), exactly as for the same damage on index.html: never `site.read`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers.js';
import { call, projectFolder, startV1Server, zipForm, zipOf } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

const decoder = new TextDecoder();

/** A copy of a writeZip archive with one entry's CRC-32 (both headers) or flags changed. */
function damaged(zip: Uint8Array, name: string, how: 'crc' | 'encrypted' | 'local_crc') {
  const out = zip.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const end = out.length - 22;
  for (let at = view.getUint32(end + 16, true); at < end;) {
    const nameLength = view.getUint16(at + 28, true);
    const next =
      at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (decoder.decode(out.subarray(at + 46, at + 46 + nameLength)) === name) {
      const local = view.getUint32(at + 42, true);
      if (how === 'encrypted') {
        view.setUint16(local + 6, view.getUint16(local + 6, true) | 1, true);
        view.setUint16(at + 8, view.getUint16(at + 8, true) | 1, true);
      } else {
        view.setUint32(local + 14, ~view.getUint32(local + 14, true) >>> 0, true);
        if (how === 'crc') view.setUint32(at + 16, ~view.getUint32(at + 16, true) >>> 0, true);
      }
      return out;
    }
    at = next;
  }
  throw new Error(`no entry ${name}`);
}

const expected = {
  crc: 'archive.crc_mismatch',
  encrypted: 'archive.encrypted',
  local_crc: 'archive.header_mismatch',
} as const;

describe('a damaged project.json is reported by the folder checks', () => {
  for (const how of ['crc', 'encrypted', 'local_crc'] as const) {
    for (const file of ['project.json', 'index.html']) {
      it(`answers ${expected[how]} on ${file} with checks.archive failed`, async () => {
        const zip = damaged(zipOf(projectFolder('Damaged')), file, how);
        const answer = await call(s, 'POST', '/projects/folder', {
          token: s.token,
          client: 'creator',
          form: zipForm(zip),
        });
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe('folder_check_failed');
        expect(answer.body.checks?.archive).toBe('failed');
        expect(answer.body.checks).not.toHaveProperty('site');
        expect(answer.body.violations).toContainEqual(
          expect.objectContaining({ check: 'archive', code: expected[how], path: file }),
        );
        expect(answer.body.violations?.some((v) => v.code.startsWith('site.'))).toBe(false);
      });
    }
  }
});
