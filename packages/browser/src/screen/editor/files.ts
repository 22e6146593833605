import type { EditorScreen } from './screen.js';

const images = /\.(png|jpe?g|gif|webp|svg|avif)$/i;
const pages = /\.html?$/i;

/** A path as the page links it: relative to the page's own folder. */
export function relativeTo(pageFile: string, file: string): string {
  const from = pageFile.split('/').slice(0, -1);
  const to = file.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

/** The project's own files an element of this tag may point to (images for img, pages for a). */
export function projectFiles(screen: EditorScreen, tag: string): string[] {
  const folder = screen.model.folder.value;
  if (!folder) return [];
  const wanted =
    tag === 'a' ? pages : ['img', 'source', 'video', 'audio'].includes(tag) ? images : null;
  if (!wanted) return [];
  return [...folder.keys()]
    .filter((file) => wanted.test(file))
    .map((file) => relativeTo(screen.setup.page.file, file))
    .sort();
}
