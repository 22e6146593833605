// The benchmark's input: a 20 MB, 1,000-file web project folder that passes every check, built
// from a seeded pseudo-random source so that every run measures the same bytes.
const encoder = new TextEncoder();

export const shape = { pages: 400, styles: 40, images: 559 } as const;

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** Pages link each other, images (src, srcset, CSS url()) and style sheets, as real sites do. */
export function benchFolder(): Map<string, Uint8Array> {
  const next = seeded(7);
  const words = 'galley check folder page print banner layout copy medium canvas'.split(' ');
  const text = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
  const image = (i: number) => `img/photo-${i % shape.images}.png`;
  const page = (i: number) => {
    const nav = Array.from(
      { length: 16 },
      (_, k) => `<li><a href="page-${(i + k + 1) % shape.pages}.html">${text(2)}</a></li>`,
    ).join('');
    const figures = Array.from(
      { length: 6 },
      (_, k) =>
        `<figure id="f${k}"><img src="${image(i * 6 + k)}" srcset="${image(i * 6 + k + 1)} 2x" alt="${text(2)}"><figcaption>${text(10)}</figcaption></figure>`,
    ).join('\n');
    const sections = Array.from(
      { length: 24 },
      (_, k) =>
        `<section id="s${k}"><h2>${text(4)}</h2><p>${text(70)}</p><p>${text(25)}</p></section>`,
    ).join('\n');
    return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><link rel="stylesheet" href="css/site-${i % shape.styles}.css"></head>\n<body><nav><ul>${nav}</ul></nav><main>${figures}\n${sections}</main></body></html>\n`;
  };
  const style = (i: number) =>
    Array.from(
      { length: 100 },
      (_, k) => `.c${k} { padding: ${k}px; background: url(../${image(i + k)}) no-repeat; }`,
    ).join('\n');
  const png = (width: number, height: number) => {
    const bytes = new Uint8Array(22_100);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    bytes.set([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    new DataView(bytes.buffer).setUint32(16, width);
    new DataView(bytes.buffer).setUint32(20, height);
    bytes.set([8, 6, 0, 0, 0], 24);
    return bytes;
  };

  const files = Array.from({ length: shape.pages }, (_, i) => `page-${i}.html`);
  const project = {
    format: 1,
    title: 'CLI bench',
    media: { id: 'web', version: 1 },
    pages: files.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  const folder = new Map<string, Uint8Array>([
    ['project.json', encoder.encode(JSON.stringify(project))],
  ]);
  files.forEach((file, i) => folder.set(file, encoder.encode(page(i))));
  for (let i = 0; i < shape.styles; i++) folder.set(`css/site-${i}.css`, encoder.encode(style(i)));
  for (let i = 0; i < shape.images; i++) folder.set(image(i), png(640 + i, 480 + i));
  return folder;
}
