// Benchmark: convert a 500-page, 20 MB plain-site ZIP into a project folder ZIP, against the bare
// work it implies (unzip, parse every page with htmlparser2, serialize it, deterministic zip),
// side by side in one run. Writes <repo>/.bench/convert.json. Run: npx tsx bench/convert.bench.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { deflateRawSync } from 'node:zlib';
import render from 'dom-serializer';
import { unzipSync, zipSync } from 'fflate';
import { parseDocument } from 'htmlparser2';
import {
  zipDeflateLevel,
  checkFolder,
  convertSite,
  convertSiteZip,
  readZip,
  writeZip,
  type RawDeflate,
} from '../src/index.js';

const pageCount = 500;
/** Pages with names to clean (`Our Work/Case 7.HTML`): renamed, and every link to them rewritten. */
const renamedEvery = 10;
const styleCount = 20;
const imageCount = 420;
const goalRatio = 1.5;
const rounds = 7;
/** The deflate the server passes to writeZip; both sides use it. */
const deflate: RawDeflate = (data) => deflateRawSync(data, { level: zipDeflateLevel });

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A deterministic pseudo-random source, so every run converts the same site. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x80000000;
  };
}
const next = random(7);
const words = 'plain site page travel harbour lighthouse ferry island map guide photo'.split(' ');
const sentence = (n: number) =>
  Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');

/** A PNG signature and header, then incompressible bytes: a stored entry, as real images are. */
function png(width: number, height: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(next() * 256);
  const view = new DataView(bytes.buffer);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/** Site path of page i: most are valid names, every tenth needs cleaning. */
const pagePath = (i: number) =>
  i === 0 ? 'index.html' : i % renamedEvery === 0 ? `Our Work/Case ${i}.HTML` : `p${i}.html`;

function relativeFrom(from: string, to: string): string {
  return from.includes('/') ? `../${to}` : to;
}

function page(i: number): string {
  const at = pagePath(i);
  const up = (path: string) => relativeFrom(at, path);
  const links = Array.from({ length: 20 }, (_, k) => {
    const target = (i + k * 7 + 1) % pageCount;
    return `<li><a href="${up(encodeURI(pagePath(target)))}">${sentence(3)}</a></li>`;
  });
  const images = Array.from({ length: 6 }, (_, k) => {
    const n = (i * 6 + k) % imageCount;
    const src = up(`img/i${n}.png`);
    return `<figure id="f${k}"><img src="${src}" srcset="${src} 1x, ${up(`img/i${(n + 1) % imageCount}.png`)} 2x" alt="${sentence(2)}"><figcaption>${sentence(8)}</figcaption></figure>`;
  });
  const sections = Array.from(
    { length: 24 },
    (_, k) =>
      `<section id="s${k}"><h2>${sentence(4)}</h2><p>${sentence(60)}</p><p class="note" style="background:url(${up(`img/i${k}.png`)})">${sentence(30)}</p></section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title>
<link rel="stylesheet" href="${up(`css/s${i % styleCount}.css`)}"></head>
<body><header><nav><ul>${links.join('\n')}</ul></nav></header>
<main>${images.join('\n')}${sections.join('\n')}</main>
<footer><a href="https://example.com/">${sentence(3)}</a> <a href="${up('gone.html')}">old page</a></footer></body></html>\n`;
}

function style(i: number): string {
  const rules = Array.from(
    { length: 120 },
    (_, k) =>
      `.r${k} { margin: ${k}px; background: url(../img/i${(i + k) % imageCount}.png) no-repeat; }`,
  );
  return `@import "base.css";\n${rules.join('\n')}\n`;
}

/** The site as a typical ZIP tool makes it: inside one folder, with macOS metadata beside it. */
function buildSiteZip(): { zip: Uint8Array; bytes: number } {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < pageCount; i++)
    files[`Harbour Site/${pagePath(i)}`] = encoder.encode(page(i));
  files['Harbour Site/css/base.css'] = encoder.encode('body { font: 16px sans-serif; }\n');
  for (let i = 0; i < styleCount; i++)
    files[`Harbour Site/css/s${i}.css`] = encoder.encode(style(i));
  for (let i = 0; i < imageCount; i++)
    files[`Harbour Site/img/i${i}.png`] = png(300 + i, 200 + i, 25_000);
  files['__MACOSX/Harbour Site/._index.html'] = new Uint8Array([0, 5, 22, 7]);
  const bytes = Object.values(files).reduce((sum, b) => sum + b.length, 0);
  return { zip: zipSync(files, { level: 6 }), bytes };
}

/** Phase timings of one run, in milliseconds. */
type Phases = [number, number, number];
const total = (phases: Phases) => phases[0] + phases[1] + phases[2];

function time<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

/** Unzip, parse and serialize every page, zip deterministically: what any conversion must do. */
function bareWork(zip: Uint8Array): { zip: Uint8Array; phases: Phases } {
  const [files, unzip] = time(() => unzipSync(zip));
  const [folder, pages] = time(() => {
    const out = new Map<string, Uint8Array>();
    for (const [path, bytes] of Object.entries(files)) {
      const html = /\.html$/i.test(path);
      out.set(path, html ? encoder.encode(render(parseDocument(decoder.decode(bytes)))) : bytes);
    }
    return out;
  });
  const [written, zipping] = time(() => writeZip(folder, { deflate }));
  return { zip: written, phases: [unzip, pages, zipping] };
}

/** convertSiteZip is readZip then convertSite: timed apart to show where the time goes. */
function conversion(zip: Uint8Array): { zip: Uint8Array; phases: Phases } {
  const [read, unzip] = time(() => readZip(zip));
  const [result, convert] = time(() =>
    convertSite(read.folder, { preViolations: read.violations }),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.report.violations.slice(0, 3)));
  const [written, zipping] = time(() => writeZip(result.folder, { deflate }));
  return { zip: written, phases: [unzip, convert, zipping] };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const { zip, bytes: bytesIn } = buildSiteZip();

// Check the output before timing it: the site converts, renames and unwraps, and the project
// folder passes every check; the bare work keeps every page.
const converted = convertSiteZip(zip);
if (!converted.ok) throw new Error(JSON.stringify(converted.report.violations.slice(0, 3)));
const report = checkFolder(converted.folder);
if (report.violations.length > 0)
  throw new Error(
    `converted folder does not pass: ${JSON.stringify(report.violations.slice(0, 3))}`,
  );
const warnings = converted.site.warnings;
const renamed = warnings.filter((w) => w.code === 'site.renamed').length;
const unwrapped = warnings.filter((w) => w.code === 'site.link_removed').length;
if (converted.site.pages.length !== pageCount || renamed !== pageCount / renamedEvery - 1)
  throw new Error(
    `unexpected conversion: ${converted.site.pages.length} pages, ${renamed} renamed`,
  );
if (unwrapped !== pageCount)
  throw new Error(`expected ${pageCount} links unwrapped, saw ${unwrapped}`);
const bareCount = Object.keys(unzipSync(bareWork(zip).zip)).filter(
  (p) => p.startsWith('Harbour Site/') && /\.html$/i.test(p),
).length;
if (bareCount !== pageCount) throw new Error('bare work did not keep every page');
if (readZip(conversion(zip).zip).folder.size !== converted.folder.size)
  throw new Error('the project ZIP does not hold the converted folder');

const bare: Phases[] = [];
const convert: Phases[] = [];
for (let round = 0; round < rounds + 2; round++) {
  const b = bareWork(zip).phases;
  const c = conversion(zip).phases;
  if (round >= 2) {
    bare.push(b); // the first two rounds warm the JIT up
    convert.push(c);
  }
}
const bareMs = median(bare.map(total));
const convertMs = median(convert.map(total));
const ratio = convertMs / bareMs;
const phase = (runs: Phases[], i: number) => `${median(runs.map((p) => p[i]!)).toFixed(0)} ms`;
const mb = (n: number) => (n / 1e6).toFixed(1);
const result = {
  title: `Site conversion: ${pageCount} pages, ${mb(bytesIn)} MB (${mb(zip.length)} MB zipped)`,
  rows: [
    {
      name: 'bare work: fflate unzipSync + htmlparser2 parse and serialize of every page + writeZip (median)',
      value: `${bareMs.toFixed(0)} ms`,
      goal: 'reference',
      ok: true,
    },
    {
      name: `convertSiteZip + writeZip: ${renamed} pages renamed, ${unwrapped} links unwrapped (median)`,
      value: `${convertMs.toFixed(0)} ms`,
      goal: `≤ ${goalRatio}× bare work`,
      ok: ratio <= goalRatio,
    },
    {
      name: 'phases, conversion vs bare: reading the ZIP (readZip vs fflate unzipSync) · pages (convertSite vs parse and serialize) · writeZip (medians)',
      value: `${phase(convert, 0)} vs ${phase(bare, 0)} · ${phase(convert, 1)} vs ${phase(bare, 1)} · ${phase(convert, 2)} vs ${phase(bare, 2)}`,
      goal: 'breakdown',
      ok: true,
    },
    {
      name: 'conversion ÷ bare work',
      value: `${ratio.toFixed(2)}×`,
      goal: `≤ ${goalRatio}×`,
      ok: ratio <= goalRatio,
    },
  ],
  notes: `Both sides zip with node:zlib raw deflate at Galley's fixed export level (the server's deflate); ${rounds} timed rounds after 2 warm-up rounds, medians.`,
};
const out = new URL('../../../.bench/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('convert.json', out), `${JSON.stringify(result, null, 2)}\n`);
// A missed goal is a row that says so (`ok: false`), not a failed run: `pnpm bench` goes on.
console.log(result.title);
for (const row of result.rows)
  console.log(`${row.ok ? 'ok  ' : 'MISS'} ${row.name}: ${row.value} (goal ${row.goal})`);
