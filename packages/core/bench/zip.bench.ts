// Deterministic export of a 20 MB, 1,000-file folder with node:zlib passed in, side by side with
// fflate's zipSync at level 6, its default (which deflates every file). Output is verified first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { readZip, writeZip, zipDeflateLevel, type RawDeflate } from '../src/zip/index.js';

const level = zipDeflateLevel;
const peerLevel = 6;
const zlibDeflate: RawDeflate = (data) => deflateRawSync(data, { level });

/** mulberry32: the folder is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A site-like folder: 700 pages built on one shared template (head, navigation, footer) around
 * unique prose, 40 style sheets, and 260 images of incompressible bytes; about half the bytes
 * are images, as on the web. Text is drawn from a Zipf-like vocabulary so it deflates like prose.
 */
function generateFolder(): Map<string, Uint8Array> {
  const next = random(20);
  const syllables =
    'ka lo mi ne ra su ti ve po da ge hu li mo na pe ri sa to vu ber con dis for in'.split(' ');
  const vocabulary = Array.from({ length: 3000 }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * 3) },
      () => syllables[Math.floor(next() * syllables.length)],
    ).join(''),
  );
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]!;
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const te = new TextEncoder();
  const folder = new Map<string, Uint8Array>();
  const nav = Array.from(
    { length: 24 },
    (_, i) =>
      `<li class="nav-item"><a class="nav-link" href="/pages/${i}.html">${words(2)}</a></li>`,
  ).join('\n');
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="../styles/main.css"><link rel="icon" href="../images/0.png">`;
  const footer = `<footer class="site-footer"><div class="container"><p>${words(30)}</p><ul class="footer-links">${nav}</ul></div></footer>`;
  for (let i = 0; i < 700; i++) {
    let article = '';
    const target = 6_000 + next() * 8_000;
    while (article.length < target) {
      article += `<h2 id="h${article.length}">${words(4)}</h2>\n<p>${words(25 + Math.floor(next() * 60))}</p>\n`;
      if (next() < 0.3)
        article += `<figure><img src="../images/${Math.floor(next() * 260)}.png" alt="${words(4)}" width="640" height="480"><figcaption>${words(8)}</figcaption></figure>\n`;
    }
    const page = `<!doctype html>\n<html lang="en"><head>${head}<title>${words(5)}</title></head><body><header class="site-header"><nav><ul class="nav">${nav}</ul></nav></header><main class="container"><article>${article}</article></main>${footer}</body></html>`;
    folder.set(`pages/${String(i).padStart(3, '0')}.html`, te.encode(page));
  }
  const properties = [
    'margin',
    'padding',
    'color',
    'background-color',
    'font-size',
    'line-height',
    'border-radius',
    'display',
    'gap',
  ];
  for (let i = 0; i < 40; i++) {
    let css = '';
    while (css.length < 25_000) {
      const declarations = Array.from(
        { length: 2 + Math.floor(next() * 5) },
        () =>
          `  ${properties[Math.floor(next() * properties.length)]}: ${Math.floor(next() * 48)}px;`,
      );
      css += `.${word()}-${word()} > .${word()} {\n${declarations.join('\n')}\n}\n`;
    }
    folder.set(`styles/${String(i).padStart(2, '0')}.css`, te.encode(css));
  }
  for (let i = 0; i < 260; i++) {
    const png = new Uint8Array(30_000 + Math.floor(next() * 20_000));
    for (let j = 0; j < png.length; j++) png[j] = Math.floor(next() * 256);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    folder.set(`images/${i}.png`, png);
  }
  return folder;
}

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  return b !== undefined && Buffer.compare(a, b) === 0;
}

function assertSameFolder(
  label: string,
  expected: Map<string, Uint8Array>,
  actual: Map<string, Uint8Array>,
) {
  if (actual.size !== expected.size)
    throw new Error(`${label}: ${actual.size} files, expected ${expected.size}`);
  for (const [name, data] of expected) {
    if (!sameBytes(data, actual.get(name))) throw new Error(`${label}: ${name} differs`);
  }
}

/**
 * Times every variant once per round, interleaved so that a noisy neighbour slows all of them
 * alike, after one warm-up round; returns each variant's median in milliseconds.
 */
function timeRounds(
  rounds: number,
  variants: Record<string, () => unknown>,
): Record<string, number> {
  const times: Record<string, number[]> = {};
  for (let round = -1; round < rounds; round++) {
    for (const [name, work] of Object.entries(variants)) {
      const start = performance.now();
      work();
      if (round >= 0) (times[name] ??= []).push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
}

const folder = generateFolder();
const inputBytes = [...folder.values()].reduce((n, d) => n + d.length, 0);

// Verify before timing: valid, complete, deterministic; and the peer's output is valid too.
const ours = writeZip(folder, { deflate: zlibDeflate });
const read = readZip(ours);
if (read.violations.length > 0)
  throw new Error(`export is not valid: ${JSON.stringify(read.violations[0])}`);
assertSameFolder('writeZip + node:zlib', folder, read.folder);
if (!sameBytes(ours, writeZip(new Map([...folder].reverse()), { deflate: zlibDeflate }))) {
  throw new Error('export is not deterministic');
}
assertSameFolder(
  'fflate zipSync',
  folder,
  new Map(Object.entries(unzipSync(zipSync(Object.fromEntries(folder), { level: peerLevel })))),
);

const files = Object.fromEntries(folder);
const ms = timeRounds(9, {
  zlib: () => writeZip(folder, { deflate: zlibDeflate }),
  fflate: () => writeZip(folder),
  peer: () => zipSync(files, { level: peerLevel }),
  read: () => readZip(ours),
  unzip: () => unzipSync(ours),
});
const mbPerSecond = (t: number) => inputBytes / 1e6 / (t / 1000);
const rate = (t: number) => `${mbPerSecond(t).toFixed(0)} MB/s (${t.toFixed(0)} ms)`;

const speedup = ms.peer! / ms.zlib!;
const rows = [
  {
    name: `writeZip, node:zlib level ${level} (${(inputBytes / 1e6).toFixed(1)} MB, ${folder.size} files)`,
    value: rate(ms.zlib!),
    goal: '≥ 150 MB/s',
    ok: mbPerSecond(ms.zlib!) >= 150,
  },
  {
    name: `speed-up over fflate zipSync level ${peerLevel}, which deflates every file (${ms.peer!.toFixed(0)} ms)`,
    value: `${speedup.toFixed(1)}×`,
    goal: '≥ 2×',
    ok: speedup >= 2,
  },
  {
    name: `writeZip, default fflate level ${level} (the browser's path)`,
    value: rate(ms.fflate!),
    goal: 'reference',
    ok: true,
  },
  {
    name: 'readZip of the export (all checks, CRCs verified) vs fflate unzipSync (none)',
    value: `${ms.read!.toFixed(0)} ms vs ${ms.unzip!.toFixed(0)} ms (${(ms.read! / ms.unzip!).toFixed(2)}×)`,
    goal: 'reference',
    ok: true,
  },
];

const result = { title: 'Deterministic ZIP export (packages/core/bench/zip.bench.ts)', rows };
const out = new URL('../../../.bench/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('zip.json', out), `${JSON.stringify(result, null, 2)}\n`);
for (const row of rows)
  console.log(`${row.ok ? 'ok  ' : 'MISS'} ${row.name}: ${row.value} (goal ${row.goal})`);
