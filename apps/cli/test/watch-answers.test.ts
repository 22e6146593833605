// `galley watch` against stand-ins for the service on loopback, answering what a real one
// would not (answers of another shape, a 429, a 503), and against records of its folder that
// are not its own: every such run ends in one line, and nothing is written.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@galley/store/ids';
import {
  directoryOf,
  galley,
  oneErrorLine,
  removeDirectory,
  spawnGalley,
} from './support/galley.js';
import { fakeService } from './support/server.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

/** A confirmation as the interface sends it, for a stand-in service to offer. */
function confirmationOf(zip: Uint8Array, downloadUrl: string, version: unknown = 1) {
  return {
    id: 'cnf_1',
    version,
    revision: 1,
    sha256: sha256Hex(zip),
    note: null,
    confirmed_at: '2030-01-01T00:00:00.000+00:00',
    confirmed_by: { name: 'Ada' },
    download_url: downloadUrl,
    has_unconfirmed_changes: false,
  };
}

describe('galley watch reads only answers of the interface’s shape', () => {
  const zip = new TextEncoder().encode('PK stand-in bytes');
  let page = '';
  let service: Awaited<ReturnType<typeof fakeService>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    service = await fakeService((req, res) => {
      if (req.url === '/v.zip') res.writeHead(200, { 'content-type': 'application/zip' }).end(zip);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(page);
    });
    env = { GALLEY_SERVER: service.url, GALLEY_TOKEN: 'glly_x' };
  });
  afterAll(async () => {
    await service.close();
  });
  const list = (...confirmations: unknown[]) =>
    JSON.stringify({ confirmations, next_page_url: null });

  it('a version that is no whole number from 1, or a list of another shape: exit 1, nothing made', async () => {
    const cases: Array<[string, string]> = [
      [
        list(confirmationOf(zip, '/v.zip', '/../../escaped')),
        'confirmations.0.version: Invalid input: expected number, received string',
      ],
      [list(confirmationOf(zip, '/v.zip', 0)), 'confirmations.0.version: Too small'],
      [list(confirmationOf(zip, '/v.zip', 1.5)), 'confirmations.0.version: Invalid input'],
      [list(confirmationOf(zip, '/v.zip', 2 ** 60)), 'confirmations.0.version: '],
      ['{"confirmations":"none"}', 'confirmations: Invalid input'],
    ];
    for (const [body, reason] of cases) {
      page = body;
      const top = await directoryOf({});
      const into = join(top, 'deep', 'into');
      const run = await galley(['watch', 'prj_f', '--into', into, '--once'], { env });
      expect([body, run.code, run.stdout]).toEqual([body, 1, '']);
      expect(oneErrorLine(run)).toBe(true);
      expect(run.stderr).toContain(
        `galley: the service sent an answer that is not a list of confirmations (${reason}`,
      );
      // Not even --into: the folder is made once the service has listed the project.
      expect(await readdir(top)).toEqual([]);
      await removeDirectory(top);
    }
    // The same stand-in with a proper version imports it: only the version was wrong above.
    page = list(confirmationOf(zip, '/v.zip', 1));
    const into = await directoryOf({});
    const run = await galley(['watch', 'prj_f', '--into', into, '--once'], { env });
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `v1: ${join(into, 'prj_f-v1.zip')} (sha256 ${sha256Hex(zip)})\n`,
    });
    await removeDirectory(into);
  });

  it('a page that is not JSON: exit 1, saying what was being read', async () => {
    page = '{"confirmations": [} oops';
    const into = await directoryOf({});
    const run = await galley(['watch', 'prj_f', '--into', into, '--once'], { env });
    expect(run.code).toBe(1);
    expect(oneErrorLine(run)).toBe(true);
    expect(run.stderr).toMatch(
      /^galley: the service sent an answer that is not JSON, for project prj_f \(.+\)\n$/,
    );
    expect(await readdir(into)).toEqual([]);
    await removeDirectory(into);
  });

  it('a failure retried: said in one line with the wait, a 429’s Retry-After kept', async () => {
    const cases: Array<[number, Record<string, string>, string, string]> = [
      [
        429,
        { 'retry-after': '7' },
        'slow down',
        'galley: too many requests (429); wait 7 s and try again; trying again in 7 s\n',
      ],
      // A detail that ends its sentence is not followed by a doubled stop (`later.;`).
      [
        503,
        {},
        'The service is busy. Try later.',
        'galley: 503 unavailable: The service is busy. Try later; trying again in 1 s\n',
      ],
    ];
    for (const [status, headers, detail, line] of cases) {
      const busy = await fakeService((_req, res) =>
        res.writeHead(status, { 'content-type': 'application/problem+json', ...headers }).end(
          JSON.stringify({
            status,
            code: status === 429 ? 'rate_limited' : 'unavailable',
            detail,
          }),
        ),
      );
      const into = await directoryOf({});
      try {
        const child = spawnGalley(['watch', 'prj_f', '--into', into, '--interval', '1'], {
          env: { ...env, GALLEY_SERVER: busy.url },
        });
        let stderr = '';
        const said = new Promise<void>((resolve) =>
          child.stderr.on('data', (d: Buffer) => {
            stderr += d.toString();
            if (stderr.includes('\n')) resolve();
          }),
        );
        const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
        await said;
        child.kill('SIGINT');
        expect(await exited).toBe(0);
        expect(stderr).toBe(line);
      } finally {
        await busy.close();
        await removeDirectory(into);
      }
    }
  });
});

describe('galley watch refuses a record in its folder that is not its own', () => {
  let asked = 0;
  let service: Awaited<ReturnType<typeof fakeService>>;
  beforeAll(async () => {
    service = await fakeService((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"confirmations":[],"next_page_url":null}');
    });
  });
  afterAll(async () => {
    await service.close();
  });

  const sha = 'a'.repeat(64);
  const entry = { project: 'prj_f', version: 1, sha256: sha };
  const imported = { ...entry, file: 'prj_f-v1.zip', imported_at: '2030-01-01T00:00:00.000Z' };
  const record = (fields: Record<string, unknown>) =>
    JSON.stringify({ format: 1, imported: [imported], skipped: [entry], ...fields });

  it('valid JSON of another shape, to any depth: exit 2 in one line, left as it is, nothing asked', async () => {
    const cases = [
      'null',
      '[]',
      record({ format: 2 }),
      record({ imported: [null] }),
      record({ skipped: [{ ...entry, version: undefined }] }),
      record({ skipped: [{ ...entry, version: 0 }] }),
      record({ imported: [{ ...imported, file: undefined }] }),
      record({ imported: [{ ...imported, sha256: 'not hex' }] }),
      record({ imported: [{ ...imported, project: '../x' }] }),
      record({ imported: [{ ...imported, imported_at: 'yesterday' }] }),
    ];
    for (const text of cases) {
      const into = await directoryOf({ '.galley-imported.json': text });
      const path = join(into, '.galley-imported.json');
      const run = await galley(['watch', 'prj_f', '--into', into, '--once'], {
        env: { GALLEY_SERVER: service.url, GALLEY_TOKEN: 'glly_x' },
      });
      expect([text, run]).toEqual([
        text,
        {
          code: 2,
          stdout: '',
          stderr: `galley: ${path} is not a record of galley watch (format 1); repair it, or remove it to import anew\n`,
        },
      ]);
      expect(await readFile(path, 'utf8')).toBe(text);
      await removeDirectory(into);
    }
    expect(asked).toBe(0);
    // The record those cases were made from is one: it is read, and the poll goes on.
    const into = await directoryOf({ '.galley-imported.json': record({}) });
    const run = await galley(['watch', 'prj_f', '--into', into, '--once'], {
      env: { GALLEY_SERVER: service.url, GALLEY_TOKEN: 'glly_x' },
    });
    expect(run).toEqual({ code: 0, stderr: '', stdout: 'nothing new for prj_f\n' });
    await removeDirectory(into);
  });
});
