// The in-process sweeper, driven by moving the injected clock: trash purged after 30 days,
// blobs expired after 1 day, their bytes deleted when nothing else uses them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Call, TestServer } from './helpers.js';
import {
  clientOf,
  createImage,
  createProduction,
  key,
  png,
  startTestServer,
  uploadBlob,
} from './helpers.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
});
/** Whether the byte store (a folder or a bucket) holds the content. */
const stored = (sha256: string) => s.store.bytes.has(sha256);
afterAll(() => s.close());

const DAY = 86_400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `check` to hold; the sweeper looks at the clock every second of real time. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  for (const start = Date.now(); !(await check()); await sleep(50)) {
    if (Date.now() - start > ms) throw new Error('the sweeper did not act in time');
  }
}

/** Lets the sweeper see the current clock time at least once. */
const settle = () => sleep(1500);

const trash = (id: string, state = 'deleted') =>
  call('PUT', `/assets/${id}/state`, { json: { request_key: key(), state } });

it('purges trashed assets 30 days after they were trashed, not before, and not restored ones', async () => {
  const doomed = await createProduction(call, {
    files: [{ path: 'canvas/doomed.css', text: 'd{}' }],
  });
  const restored = await createImage(call, png(12, 12));
  const kept = await createImage(call, png(13, 13));
  expect((await trash(doomed.id)).status).toBe(200);
  expect((await trash(restored.id)).status).toBe(200);
  const sha256 = doomed.revision.files.find((f) => f.path === 'canvas/doomed.css')!.sha256;

  s.clock.advanceSeconds(30 * DAY - 60);
  await settle();
  expect((await call('GET', `/assets/${doomed.id}`)).status).toBe(200);
  expect((await trash(restored.id, 'active')).status).toBe(200);

  s.clock.advanceSeconds(120);
  await eventually(async () => (await call('GET', `/assets/${doomed.id}`)).status === 404);
  // The purge commits the asset's removal first, then lets its bytes go (another step).
  await eventually(async () => !(await stored(sha256)));
  expect((await call('GET', `/assets/${restored.id}`)).body.asset.state).toBe('active');
  expect((await call('GET', `/assets/${kept.id}`)).status).toBe(200);
});

it('expires blobs after a day: unusable at once, bytes deleted unless an asset uses them', async () => {
  const unused = await uploadBlob(call, png(21, 21));
  const used = await uploadBlob(call, png(22, 22));
  const asset = await call('POST', '/assets', {
    json: {
      request_key: key(),
      kind: 'image',
      title: 'Keeps',
      files: [{ path: 'i.png', blob: used }],
    },
  });
  expect(asset.status).toBe(201);

  s.clock.advanceSeconds(DAY - 60);
  await settle();
  expect(await stored(unused)).toBe(true);
  const stillLive = await call('POST', '/assets', {
    json: {
      request_key: key(),
      kind: 'image',
      title: 'Late',
      files: [{ path: 'i.png', blob: unused }],
    },
  });
  expect(stillLive.status).toBe(201);
  const fresh = await uploadBlob(call, png(23, 23));

  s.clock.advanceSeconds(120);
  const tooLate = await call('POST', '/assets', {
    json: {
      request_key: key(),
      kind: 'image',
      title: 'Late',
      files: [{ path: 'i.png', blob: fresh }],
    },
  });
  expect(tooLate.status).toBe(201); // uploaded a minute ago: still within its day
  const expired = await call('POST', '/assets', {
    json: {
      request_key: key(),
      kind: 'image',
      title: 'Late',
      files: [{ path: 'i.png', blob: used }],
    },
  });
  expect([expired.status, Object.keys(expired.body.errors ?? {})]).toEqual([422, ['files.0.blob']]);
  await settle();
  expect(await stored(used)).toBe(true); // an asset uses it
  expect(await stored(unused)).toBe(true); // so does "Late"

  const lonely = await uploadBlob(call, png(24, 24));
  s.clock.advanceSeconds(DAY + 60);
  await eventually(async () => !(await stored(lonely)));
  expect((await call('GET', `/assets/${asset.body.asset.id}/files/i.png`)).status).toBe(200);
});

it('keeps bytes a project of the editing interface uses when a blob of the same bytes expires', async () => {
  const css = 'body { margin: 0; }\n'; // the style sheet of the v1 test folder
  const { createProject } = await import('../v1/helpers.js');
  const { id } = await createProject(s, s.token, 'Shares bytes');
  const sha256 = await uploadBlob(call, Buffer.from(css));
  s.clock.advanceSeconds(2 * DAY);
  await settle();
  expect(await stored(sha256)).toBe(true);
  const folder = await fetch(`${s.url}/api/v1/projects/${id}/folder`, {
    headers: { authorization: `Bearer ${s.token}` },
  });
  expect(folder.status).toBe(200);
});
