// The inputs that Node and Chromium must judge alike: saved folders (as export ZIPs), a page file
// and draft HTML, plus operations for the draft engine. Built from the shared corpus where it is
// present, and from a few synthetic folders always.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { convertSite, writeZip } from '@galley/core';
import type { Folder, Operation } from '@galley/core';
import { folderOf, page, projectJson } from './fixtures.js';

export interface SaveCase {
  readonly name: string;
  /** Base64 of the saved folder's ZIP (what GET /api/v1/projects/{id}/folder answers). */
  readonly zip: string;
  readonly file: string;
  readonly html: string;
}

export interface DraftCase {
  readonly name: string;
  readonly html: string;
  readonly operations: readonly Operation[];
}

export const corpus = new URL('../../../../shared/corpus/', import.meta.url);

export function corpusMissing(folder: string): string | undefined {
  const url = new URL(folder, corpus);
  return existsSync(url) ? undefined : `corpus folder ${url.pathname} is absent`;
}

function readTree(folder: URL, prefix = ''): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(folder).sort()) {
    const url = new URL(encodeURIComponent(name), folder);
    if (statSync(url).isDirectory()) {
      const below = readTree(new URL(`${encodeURIComponent(name)}/`, folder), `${prefix}${name}/`);
      for (const [path, bytes] of below) files.set(path, bytes);
    } else files.set(`${prefix}${name}`, new Uint8Array(readFileSync(url)));
  }
  return files;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

/** Three drafts of a page: as saved, with dangling references, with broken structure. */
function variants(name: string, folder: Folder, file: string): SaveCase[] {
  const zip = base64(writeZip(folder));
  const saved = text(folder.get(file));
  const dangling = saved.replace(
    /<\/body>/i,
    '<a href="nowhere/missing.html">gone</a><img src="gone.png" alt=""></body>',
  );
  const broken = saved
    .replace(/<title>[^<]*<\/title>/i, '')
    .replace(/<\/body>/i, '<p id="twice">1</p><p id="twice">2</p></body>');
  return [
    { name: `${name} ${file} as saved`, zip, file, html: saved },
    { name: `${name} ${file} dangling`, zip, file, html: dangling },
    { name: `${name} ${file} broken`, zip, file, html: broken },
  ];
}

function synthetic(): SaveCase[] {
  const folder = folderOf({
    'project.json': projectJson(['index.html', 'docs/a.html']),
    'index.html': page('<p id="x">Hi <a href="docs/a.html">a</a> <img src="logo.svg" alt=""></p>'),
    'docs/a.html': page('<p>A</p><link rel="stylesheet" href="../style.css">', 'A'),
    'style.css': 'body { background: url(missing.png) }',
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>',
  });
  return variants('synthetic', folder, 'index.html');
}

function sites(): SaveCase[] {
  const root = new URL('sites/', corpus);
  return readdirSync(root)
    .filter((name) => statSync(new URL(name, root)).isDirectory())
    .flatMap((name) => {
      const converted = convertSite(readTree(new URL(`${name}/`, root)));
      if (!converted.ok) return [];
      const pages = converted.site.pages.slice(0, 3).map((p) => p.file);
      return pages.flatMap((file) => variants(`site ${name}`, converted.folder, file));
    });
}

/** Every corpus image in a banner project's canvas: formats, dimensions and canvas findings. */
function images(): SaveCase[] {
  const files = readTree(new URL('images/image-size-specs/', corpus));
  const folder = new Map<string, Uint8Array>();
  const tags: string[] = [];
  for (const [path, bytes] of files) {
    if (path.startsWith('LICENSE') || path.endsWith('.md') || path.endsWith('.txt')) continue;
    const flat = `canvas/${path.replaceAll('/', '-').toLowerCase()}`;
    folder.set(flat, bytes);
    tags.push(`<img src="${flat}" alt="">`);
  }
  const html = page(tags.join('\n'));
  folder.set('index.html', new TextEncoder().encode(html));
  folder.set('project.json', new TextEncoder().encode(projectJson(['index.html'], 'banner')));
  return [
    { name: 'images in a banner canvas', zip: base64(writeZip(folder)), file: 'index.html', html },
  ];
}

/** Real archives (some damaged) as the "saved folder": the reader's findings must agree too. */
function archives(): SaveCase[] {
  const folders = ['zip/yauzl-success/', 'zip/yauzl-failure/'].filter((f) => !corpusMissing(f));
  return folders.flatMap((folder) => {
    const root = new URL(folder, corpus);
    return readdirSync(root)
      .filter((name) => name.endsWith('.zip'))
      .sort()
      .map((name) => ({
        name: `${folder}${name}`,
        zip: base64(new Uint8Array(readFileSync(new URL(name, root)))),
        file: 'index.html',
        html: page('<p>x</p>'),
      }));
  });
}

export function saveCases(): { cases: SaveCase[]; skipped: string[] } {
  const cases = synthetic();
  const skipped: string[] = [];
  for (const [folder, build] of [
    ['sites/', sites],
    ['images/image-size-specs/', images],
    ['zip/yauzl-success/', archives],
  ] as const) {
    const why = corpusMissing(folder);
    if (why) skipped.push(why);
    else cases.push(...build());
  }
  return { cases, skipped };
}

export const draftCases: readonly DraftCase[] = [
  {
    name: 'every operation kind, by id and by number',
    html: page(
      '<main id="m"><h1 id="t">Title</h1><p class="a b">One</p><ul id="l"><li>i</li></ul></main>',
    ),
    operations: [
      { kind: 'insert', parent: '#m', html: '<p id="new">New &amp; <b>bold</b></p>', before: '#l' },
      { kind: 'duplicate', target: '#new' },
      { kind: 'move', target: '#t', parent: '@0' },
      { kind: 'swap', target: '#l', html: '<li>a</li><li>b</li>' },
      { kind: 'replace', target: '@3', html: '<section id="s"><h2>S</h2></section>' },
      { kind: 'remove', target: '#new-2' },
    ],
  },
  {
    name: 'raw text, entities and foreign content stay as written',
    html: '<!doctype html><html><head><title>x</title></head><body><p>a&nbsp;b &#13; é</p><svg><foreignObject><p id="f">x</p></foreignObject></svg><script>if (1 < 2) {}</script></body></html>',
    operations: [
      { kind: 'insert', parent: '@0', html: '<textarea>&lt;kept&gt;</textarea>' },
      { kind: 'swap', target: '#f', html: 'y &amp; z' },
    ],
  },
  {
    name: 'inline styles, style elements and event handlers, which a strict CSP refuses',
    html: page(
      '<style>p { color: red }</style><main id="m" style="border: 1px solid" onclick="top.pwned = true"><p id="p" style="color: blue" onmouseover="top.pwned = true">x<img src="data:," onerror="top.pwned = true" alt=""></p></main>',
    ),
    operations: [
      {
        kind: 'insert',
        parent: '#p',
        html: '<b style="font-weight: 900" onfocus="top.pwned = 1">y</b>',
      },
      { kind: 'move', target: '#p', parent: '@0' },
      { kind: 'duplicate', target: '#m' },
    ],
  },
];
