// Benchmark: check a 20 MB, 1,000-file project folder ZIP against the bare work it implies
// (fflate unzipSync plus htmlparser2 parseDocument of every page), side by side in one run.
// Writes <repo>/.bench/check.json. Run: npx tsx bench/check.bench.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { unzipSync } from 'fflate';
import { parseDocument } from 'htmlparser2';
import { checkZip, writeZip } from '../src/index.js';

const pageCount = 400;
const styleCount = 40;
const imageCount = 559;
const goalRatio = 1.5;
const rounds = 9;

const encoder = new TextEncoder();

/** A deterministic pseudo-random source, so every run checks the same folder. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x80000000;
  };
}
const next = random(42);
const words =
  'galley page folder check canvas medium banner layout copy print social signage'.split(' ');
const sentence = (n: number) =>
  Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');

/** A PNG signature and header, then incompressible bytes: a stored entry, as real images are. */
function png(width: number, height: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(next() * 256);
  const u32 = (at: number, n: number) => new DataView(bytes.buffer).setUint32(at, n);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  u32(16, width);
  u32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

function page(i: number): string {
  const links = Array.from(
    { length: 20 },
    (_, k) => `<li><a href="p${(i + k + 1) % pageCount}.html">${sentence(3)}</a></li>`,
  );
  const images = Array.from({ length: 6 }, (_, k) => {
    const n = (i * 6 + k) % imageCount;
    return `<figure id="f${k}"><img src="img/i${n}.png" srcset="img/i${n}.png 1x, img/i${(n + 1) % imageCount}.png 2x" alt="${sentence(2)}"><figcaption>${sentence(8)}</figcaption></figure>`;
  });
  const sections = Array.from(
    { length: 24 },
    (_, k) =>
      `<section id="s${k}"><h2>${sentence(4)}</h2><p>${sentence(60)}</p><p class="note" style="background:url(img/i${k}.png)">${sentence(30)}</p></section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title>
<link rel="stylesheet" href="css/s${i % styleCount}.css"></head>
<body><header><nav><ul>${links.join('\n')}</ul></nav></header>
<main>${images.join('\n')}${sections.join('\n')}</main>
<footer><a href="https://example.com/">${sentence(3)}</a></footer></body></html>\n`;
}

function style(i: number): string {
  const rules = Array.from(
    { length: 120 },
    (_, k) =>
      `.r${k} { margin: ${k}px; background: url(../img/i${(i + k) % imageCount}.png) no-repeat; }`,
  );
  return `@import "base.css";\n${rules.join('\n')}\n`;
}

function buildFolder(): Map<string, Uint8Array> {
  const folder = new Map<string, Uint8Array>();
  const pages = Array.from({ length: pageCount }, (_, i) => `p${i}.html`);
  const project = {
    format: 1,
    title: 'Bench',
    media: { id: 'web', version: 1 },
    pages: pages.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  folder.set('project.json', encoder.encode(JSON.stringify(project)));
  pages.forEach((file, i) => folder.set(file, encoder.encode(page(i))));
  folder.set('css/base.css', encoder.encode('body { font: 16px sans-serif; }\n'));
  for (let i = 0; i < styleCount; i++) folder.set(`css/s${i}.css`, encoder.encode(style(i)));
  for (let i = 0; i < imageCount; i++) folder.set(`img/i${i}.png`, png(300 + i, 200 + i, 21_500));
  return folder;
}

const decoder = new TextDecoder();
function bareWork(zip: Uint8Array): number {
  const files = unzipSync(zip);
  let pages = 0;
  for (const [path, bytes] of Object.entries(files))
    if (path.endsWith('.html')) {
      parseDocument(decoder.decode(bytes));
      pages++;
    }
  return pages;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
function time(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const folder = buildFolder();
const zip = writeZip(folder);
const bytesIn = [...folder.values()].reduce((sum, b) => sum + b.length, 0);

// Check the output before timing it: the generated folder passes, the bare work sees every page.
const report = checkZip(zip);
const failed = Object.entries(report.checks).filter(([, outcome]) => outcome !== 'passed');
if (failed.length > 0 || report.violations.length > 0)
  throw new Error(
    `generated folder does not pass: ${JSON.stringify(failed)} ${JSON.stringify(report.violations.slice(0, 3))}`,
  );
if (bareWork(zip) !== pageCount) throw new Error('bare work did not parse every page');

const bare: number[] = [];
const check: number[] = [];
for (let round = 0; round < rounds + 2; round++) {
  const b = time(() => bareWork(zip));
  const c = time(() => checkZip(zip));
  if (round >= 2) {
    bare.push(b); // the first two rounds warm the JIT up
    check.push(c);
  }
}
const ratio = median(check) / median(bare);
const mb = (n: number) => (n / 1e6).toFixed(1);
const result = {
  title: `Folder check: ${folder.size} files, ${mb(bytesIn)} MB (${mb(zip.length)} MB zipped)`,
  rows: [
    {
      name: 'bare work: fflate unzipSync + htmlparser2 parseDocument of every page (median)',
      value: `${median(bare).toFixed(0)} ms`,
      goal: 'reference',
      ok: true,
    },
    {
      name: 'checkZip: readZip + every folder check (median)',
      value: `${median(check).toFixed(0)} ms`,
      goal: `≤ ${goalRatio}× bare work`,
      ok: ratio <= goalRatio,
    },
    {
      name: 'checkZip ÷ bare work',
      value: `${ratio.toFixed(2)}×`,
      goal: `≤ ${goalRatio}×`,
      ok: ratio <= goalRatio,
    },
  ],
  notes: `${rounds} interleaved rounds after 2 warm-up rounds; ${pageCount} pages, ${styleCount + 1} style sheets, ${imageCount} PNG images (stored), project.json.`,
};
const out = new URL('../../../.bench/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('check.json', out), `${JSON.stringify(result, null, 2)}\n`);
console.log(result.title);
for (const row of result.rows)
  console.log(`  ${row.name}: ${row.value} (goal ${row.goal}) ${row.ok ? 'ok' : 'NOT MET'}`);
