// An SVG declaring a width or height of 0 or below is an image beyond the bounds of decisions §4:
// POST /assets answers 422 with formats.dimensions and stores nothing (decisions §8); so does an
// SVG that is not well-formed XML (formats.mismatch: no browser draws it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call, TestServer } from './helpers.js';
import { clientOf, key, startTestServer } from './helpers.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
});
afterAll(() => s.close());

const create = (title: string, text: string) =>
  call('POST', '/assets', {
    json: { request_key: key(), kind: 'image', title, files: [{ path: 'z.svg', text }] },
  });
const svg = (size: string) => `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>`;

/** 422 with the one violation on the file's field, and no asset of that title listed. */
async function expectRefused(title: string, text: string, found: Record<string, unknown>) {
  const res = await create(title, text);
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors ?? {})).toEqual(['files.0']);
  expect(res.body.violations).toEqual([expect.objectContaining({ path: 'z.svg', ...found })]);
  const listed = await call<{ assets: Array<{ title: string }> }>('GET', '/assets?kind=image');
  expect(listed.body.assets.map((a) => a.title)).not.toContain(title);
}

describe('POST /assets with an SVG of 0 or negative size', () => {
  it.each([
    ['width="0" height="0"', { width: 0, height: 0 }],
    ['width="-5" height="-5"', { width: -5, height: -5 }],
  ])('refuses %s with 422 formats.dimensions, nothing stored', async (size, actual) => {
    await expectRefused(`svg ${size}`, svg(size), { code: 'formats.dimensions', actual });
  });

  it('stores an SVG with no declared size, unchecked as before, and one within bounds', async () => {
    const unsized = await create('no size', svg(''));
    expect(unsized.status).toBe(201);
    expect(unsized.body.asset.revision.inspection.verdict).toBe('unchecked');
    const sized = await create('sized', svg('width="300" height="250"'));
    expect(sized.status).toBe(201);
    expect(sized.body.asset.revision.inspection.verdict).toBe('passed');
  });
});

describe('POST /assets with an SVG that is not well-formed XML', () => {
  it.each([
    ['unquoted attribute values', '<svg width=10 height=10 xmlns="http://www.w3.org/2000/svg"/>'],
    ['a tag never closed', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g>'],
  ])('refuses %s with 422 formats.mismatch, nothing stored', async (what, text) => {
    await expectRefused(`broken ${what}`, text, { code: 'formats.mismatch', actual: 'text' });
  });
});
