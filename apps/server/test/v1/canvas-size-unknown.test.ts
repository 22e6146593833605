// A banner folder whose canvas image has no intrinsic size cannot match the canvas: the upload
// is refused (422, canvas.size_unknown), like one of the wrong size (decisions §4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectBody, TestServer } from './helpers.js';
import { call, startV1Server, zipForm, zipOf } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

const encoder = new TextEncoder();

/** A banner (300×250) project folder with one image under canvas/. */
function bannerFolder(image: string): Map<string, Uint8Array> {
  const project = {
    format: 1,
    title: 'Spring banner',
    media: { id: 'banner', version: 1 },
    pages: [{ file: 'index.html', title: 'Ad', public_url: '/' }],
  };
  const files: Record<string, string> = {
    'project.json': `${JSON.stringify(project, null, 2)}\n`,
    'index.html':
      '<!doctype html>\n<html><head><meta charset="utf-8"><title>Ad</title>' +
      '<meta name="viewport" content="width=300, height=250"></head>\n' +
      '<body><img src="canvas/a.svg" alt=""></body></html>\n',
    'canvas/a.svg': image,
  };
  return new Map(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)]));
}

const upload = (image: string) =>
  call<ProjectBody & { checks?: Record<string, string>; violations?: unknown[] }>(
    s,
    'POST',
    '/projects/folder',
    { token: s.token, client: 'creator', form: zipForm(zipOf(bannerFolder(image))) },
  );
const svg = (size: string) => `<svg xmlns="http://www.w3.org/2000/svg"${size}/>`;

describe('POST /projects/folder with a canvas image of unknown size', () => {
  it.each([
    ['no size', ''],
    ['a width alone', ' width="300"'],
    ['percentages', ' width="100%" height="100%"'],
  ])('answers 422 canvas.size_unknown for an SVG with %s', async (_name, size) => {
    const answer = await upload(svg(size));
    expect(answer.status).toBe(422);
    expect(answer.body.checks?.canvas).toBe('failed');
    expect(answer.body.violations).toEqual([
      {
        check: 'canvas',
        code: 'canvas.size_unknown',
        severity: 'error',
        path: 'canvas/a.svg',
        message: 'The image has no intrinsic size to compare with the canvas.',
        suggestion: 'Give the SVG width and height (or a viewBox).',
      },
    ]);
  });

  it('still answers 422 canvas.size for a wrong size and 201 for the canvas size', async () => {
    const wrong = await upload(svg(' width="10" height="10"'));
    expect(wrong.status).toBe(422);
    expect(wrong.body.violations).toEqual([
      expect.objectContaining({
        code: 'canvas.size',
        path: 'canvas/a.svg',
        expected: { width: 300, height: 250 },
        actual: { width: 10, height: 10 },
      }),
    ]);
    expect((await upload(svg(' width="300" height="250"'))).status).toBe(201);
    expect((await upload(svg(' viewBox="0 0 300 250"'))).status).toBe(201);
  });
});
