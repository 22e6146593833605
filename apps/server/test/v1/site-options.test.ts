// The site's choices of a folder upload (fields `index`, `drop_external`, `drop_missing` of
// POST /projects/folder), over real HTTP: the default is decisions §5; each choice is a field.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@galley/core';
import type { ProblemBody, ProjectBody, TestServer } from './helpers.js';
import { call, page, startV1Server, zipForm, zipOf } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

const encoder = new TextEncoder();
const site = (files: Record<string, string | Uint8Array>) =>
  zipOf(
    new Map(
      Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? encoder.encode(v) : v]),
    ),
  );

/** A created project, or a refusal whose violations carry their advice. */
type Answered = ProjectBody &
  Omit<ProblemBody, 'violations'> & { violations?: { code: string; suggestion?: string }[] };

function upload(zip: Uint8Array, fields: Record<string, string> = {}) {
  const form = zipForm(zip);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return call<Answered>(s, 'POST', '/projects/folder', {
    token: s.token,
    client: 'creator',
    form,
  });
}

const withEmbed = site({
  'index.html': page(
    'Video',
    '<iframe src="https://www.youtube.com/embed/ojcNcvb1olg"></iframe><script src="main.js"></script>',
  ),
  'style.css': 'p { margin: 0; }', // the helper's page links it
});

describe('POST /projects/folder: the site choices', () => {
  it('refuses external and missing loads by default, with advice naming the choices', async () => {
    const answer = await upload(withEmbed);
    expect(answer.status).toBe(422);
    expect(answer.body.violations?.map((v) => v.code)).toEqual(['site.external', 'site.missing']);
    const [embed, missing] = answer.body.violations ?? [];
    expect(embed?.suggestion).toContain('drop_external');
    expect(embed?.suggestion).not.toContain('Copy the file');
    expect(missing?.suggestion).toContain('drop_missing');
  });

  it('drop_external and drop_missing convert, every removal a warning', async () => {
    const answer = await upload(withEmbed, { drop_external: 'true', drop_missing: 'true' });
    expect(answer.status).toBe(201);
    expect(answer.body.site?.warnings.map((w) => [w.code, w.target])).toEqual([
      ['site.embed_linked', 'https://www.youtube.com/embed/ojcNcvb1olg'],
      ['site.missing_dropped', 'main.js'],
    ]);
    const zip = await fetch(answer.body.folder_url, {
      headers: { Authorization: `Bearer ${s.token}` },
    });
    expect(zip.status).toBe(200);
    const folder = readZip(new Uint8Array(await zip.arrayBuffer())).folder;
    const html = new TextDecoder().decode(folder.get('index.html'));
    expect(html).toContain(
      '<a href="https://www.youtube.com/embed/ojcNcvb1olg">https://www.youtube.com/embed/ojcNcvb1olg</a>',
    );
    expect(html).not.toContain('<script');
  });

  it('`false` is the default; only one choice leaves the other refusal', async () => {
    const answer = await upload(withEmbed, { drop_external: 'true', drop_missing: 'false' });
    expect(answer.status).toBe(422);
    expect(answer.body.violations?.map((v) => v.code)).toEqual(['site.missing']);
  });

  it('index names the entry page of a site without index.html', async () => {
    const pages = site({
      'home.html': page('Home', '<a href="about.html">About</a>'),
      'about.html': page('About', '<a href="home.html">Home</a>'),
      'style.css': 'p { margin: 0; }',
    });
    const refused = await upload(pages);
    expect(refused.status).toBe(422); // no index.html: a project folder without project.json
    const answer = await upload(pages, { index: 'home.html' });
    expect(answer.status).toBe(201);
    expect(answer.body.title).toBe('Home');
    expect(answer.body.site?.pages).toEqual([
      { file: 'index.html', public_url: '/' },
      { file: 'about.html', public_url: '/about.html' },
    ]);
    const absent = await upload(pages, { index: 'start.html' });
    expect(absent.status).toBe(422);
  });

  it('refuses unknown fields and values that are not true or false (422, never 500)', async () => {
    const unknown = await upload(withEmbed, { drop_everything: 'true' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('validation_failed');
    expect(unknown.body.errors).toHaveProperty('drop_everything');
    const notFlag = await upload(withEmbed, { drop_external: 'yes' });
    expect(notFlag.status).toBe(422);
    expect(notFlag.body.errors).toHaveProperty('drop_external');
    const empty = await upload(withEmbed, { index: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toHaveProperty('index');
  });
});

const corpus = join(new URL('../../../../../shared/corpus/sites/', import.meta.url).pathname);
const why = existsSync(corpus) ? null : `the shared corpus (${corpus}) is absent`;
if (why) console.warn(`skipped: ${why}`);
describe.skipIf(!!why)('the corpus sites, uploaded with the choices', () => {
  const read = (root: string) => {
    const files = new Map<string, Uint8Array>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.set(full.slice(root.length + 1), readFileSync(full));
      }
    };
    walk(root);
    return files;
  };
  const choices: Record<string, Record<string, string>> = {
    'mdn-accessibility-assessment': { drop_external: 'true', drop_missing: 'true' },
    'mdn-css-grids': { index: 'css-grid.html' },
    'mdn-splash-page': { drop_external: 'true', drop_missing: 'true' },
    'startbootstrap-agency': { drop_external: 'true', drop_missing: 'true' },
  };
  it.each(Object.entries(choices))('%s with %j: 201', async (name, fields) => {
    const answer = await upload(zipOf(read(join(corpus, name))), fields);
    expect(answer.status).toBe(201);
    expect(answer.body.site?.pages.length).toBeGreaterThan(0);
  });
});
