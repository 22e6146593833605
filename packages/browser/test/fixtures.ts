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

/** `project.json` for a medium and its pages. */
export function projectJson(files: readonly string[], medium = 'web'): string {
  return JSON.stringify({
    format: 1,
    title: 'Fixture',
    media: { id: medium, version: 1 },
    pages: files.map((file) => ({
      file,
      title: file,
      public_url: file === 'index.html' ? '/' : `/${file}`,
    })),
  });
}

/** A small valid page with `body` inserted as given. */
export function page(body: string, title = 'Page'): string {
  return `<!doctype html>\n<html>\n<head>\n<title>${title}</title>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}
