// Small plain sites for the screen tests, zipped with the core's deterministic writer.
import { writeZip } from '@galley/core';

const utf8 = (text: string) => new TextEncoder().encode(text);

export const page = (title: string, body: string) =>
  `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n<link rel="stylesheet" href="style.css">\n</head>\n<body>\n${body}\n</body>\n</html>\n`;

/**
 * Two pages, a style sheet, an unreferenced file of a type the web medium refuses (ignored), and a
 * link to a page that does not exist (unwrapped, with a `site.link_removed` warning).
 */
export function plainSiteZip(): Uint8Array {
  return writeZip(
    new Map([
      [
        'index.html',
        utf8(
          page(
            'Harbour Café',
            '<header id="top"><h1 id="title">Harbour Café</h1></header>\n<main id="content">\n<p id="intro">Fresh bread every morning. <a href="about.html">About us</a></p>\n<p>See the <a href="menu.html">menu</a>.</p>\n</main>',
          ),
        ),
      ],
      [
        'about.html',
        utf8(page('About', '<main id="content"><p id="story">Since 1987.</p></main>')),
      ],
      ['style.css', utf8('body { font-family: serif; } #title { color: teal; }')],
      ['notes.psd', utf8('8BPS not really')],
    ]),
  );
}

/**
 * One page that tries every way to run script (script elements, event handlers, javascript:
 * URLs) and carries inline styles (attributes and a style element), which the screen's own policy
 * refuses: none of it may reach the screen's document.
 */
export function hostileSiteZip(): Uint8Array {
  const body = [
    '<style>#hello { color: purple; }</style>',
    '<section id="box" style="border: 2px solid teal; padding: 4px" onclick="top.pwned = true">',
    '<p id="hello" style="font-weight: bold" onmouseenter="top.pwned = true">Hello</p>',
    '</section>',
    '<script>window.ranInPreview = true; try { parent.document.title = "pwned"; } catch (e) {} try { top.pwned = true; } catch (e) {}</script>',
    '<img id="bad-img" src="data:," onerror="window.ranInPreview = true; top.pwned = true" alt="">',
    '<a id="js-link" href="javascript:top.pwned=true">click me</a>',
    '<div id="hover" onmouseover="top.pwned = true">hover</div>',
    '<svg><script>top.pwned = true</script></svg>',
  ].join('\n');
  return writeZip(
    new Map([
      [
        'index.html',
        utf8(page('Hostile', body).replace('<link rel="stylesheet" href="style.css">\n', '')),
      ],
    ]),
  );
}
