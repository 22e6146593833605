import type { Folder } from '@galley/core';

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** A folder from path → text or bytes. */
export function folderOf(files: Readonly<Record<string, string | Uint8Array>>): Folder {
  return new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === 'string' ? utf8(content) : content,
    ]),
  );
}

export interface PageEntry {
  file: string;
  title?: string;
  public_url?: string;
}

/** project.json text for a medium and its pages (titles and URLs derived from the file). */
export function projectJson(
  pages: readonly (string | PageEntry)[] = ['index.html'],
  medium = 'web',
): string {
  return JSON.stringify({
    format: 1,
    title: 'Test',
    media: { id: medium, version: 1 },
    pages: pages.map((entry) => {
      const { file, title, public_url } = typeof entry === 'string' ? { file: entry } : entry;
      return {
        file,
        title: title ?? file,
        public_url: public_url ?? (file === 'index.html' ? '/' : `/${file}`),
      };
    }),
  });
}

/** A small valid page; `head` and `body` are inserted as given. */
export function html({ head = '', body = '', title = 'Page' } = {}): string {
  return `<!doctype html>\n<html>\n<head>\n<title>${title}</title>\n${head}</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** A PNG header (signature, IHDR, IEND): enough for sniffing and reading dimensions. */
export function png(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...u32(13),
    ...utf8('IHDR'),
    ...u32(width),
    ...u32(height),
    8,
    6,
    0,
    0,
    0,
    ...u32(0),
    ...u32(0),
    ...utf8('IEND'),
    ...u32(0xae426082),
  ]);
}

/** A GIF header with the given logical screen size. */
export function gif(width: number, height: number): Uint8Array {
  return new Uint8Array([
    ...utf8('GIF89a'),
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0,
    0,
    0,
    0x3b,
  ]);
}

/** An inert SVG of the given size. */
export function svg(width: number, height: number, inner = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${inner}</svg>`;
}

/** A valid web project with one page, plus extra files. */
export function webFolder(
  extra: Readonly<Record<string, string | Uint8Array>> = {},
  pages?: readonly (string | PageEntry)[],
): Folder {
  return folderOf({ 'project.json': projectJson(pages), 'index.html': html(), ...extra });
}
