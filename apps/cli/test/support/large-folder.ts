// A large folder with findings all over it, shared by the tests of the command (check.test.ts)
// and of the installed bundle (pack.test.ts).
import { folderOf, page, validProject } from './galley.js';

/**
 * A folder of over 1 MB zipped: 48 pages of text that does not compress well (2 MB of HTML), and
 * findings spread over them (missing links with their places, duplicate ids, a page without a
 * title, two that are not UTF-8, one not listed).
 */
export function largeFolder(): Map<string, Uint8Array> {
  let state = 11;
  const word = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state.toString(36);
  };
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const files: Record<string, string | Uint8Array> = {};
  const pages = Array.from({ length: 48 }, (_, i) => `page-${i}.html`);
  pages.forEach((file, i) => {
    const sections = Array.from(
      { length: 48 },
      (_, k) => `<section id="s${k % (i % 7 === 3 ? 24 : 48)}"><p>${words(150)}</p></section>`,
    ).join('\n');
    const link = `<a href="${pages[(i + 1) % pages.length]}">next</a><img src="img/${i % 5 === 2 ? 'gone' : 'dot'}.png" alt="">`;
    files[file] = page(i === 30 ? '' : `Page ${i}`, `${link}\n${sections}`);
  });
  const latin1 = Uint8Array.from([...Buffer.from(page('Latin-1', 'caf')), 0xe9, 0x0a]);
  files['page-14.html'] = latin1;
  files['page-40.html'] = latin1;
  files['extra.html'] = page('Unlisted', '<p>not in project.json</p>');
  const project = {
    format: 1,
    title: 'Large',
    media: { id: 'web', version: 1 },
    pages: pages.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  return folderOf({ ...validProject(files), 'project.json': JSON.stringify(project) });
}
