import type { Medium } from '@galley/core/folder';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A site follows the device's width; a canvas medium's page is exactly its canvas. */
function viewportOf(medium: Medium): string {
  const { canvas } = medium;
  return canvas
    ? `width=${canvas.width}, height=${canvas.height}`
    : 'width=device-width, initial-scale=1';
}

function styleOf(medium: Medium): string {
  const { canvas } = medium;
  const page = canvas
    ? [
        `html, body { margin: 0; width: ${canvas.width}px; height: ${canvas.height}px; overflow: hidden; }`,
        'body { display: grid; place-content: center; text-align: center; }',
      ]
    : ['body { margin: 0 auto; max-width: 40rem; padding: 2rem 1rem; line-height: 1.5; }'];
  return [
    ':root { color: #1d1d1f; background: #fff; font-family: system-ui, sans-serif; }',
    ...page,
    'h1 { margin: 0 0 0.5em; }',
    '',
  ].join('\n');
}

/**
 * The files of a new project folder of `medium` (decisions §4): project.json naming one page,
 * that page, and its style sheet. Together they pass every folder check.
 */
export function scaffoldFolder(medium: Medium, title: string): Map<string, string> {
  const project = {
    format: 1,
    title,
    media: { id: medium.id, version: medium.version },
    pages: [{ file: 'index.html', title, public_url: '/' }],
  };
  const page = [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8">',
    `    <meta name="viewport" content="${viewportOf(medium)}">`,
    `    <title>${escapeHtml(title)}</title>`,
    '    <link rel="stylesheet" href="style.css">',
    '  </head>',
    '  <body>',
    '    <main id="content">',
    `      <h1>${escapeHtml(title)}</h1>`,
    `      <p>A new ${escapeHtml(medium.label)} project. Edit this page, then run galley check.</p>`,
    '    </main>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
  return new Map([
    ['project.json', `${JSON.stringify(project, null, 2)}\n`],
    ['index.html', page],
    ['style.css', styleOf(medium)],
  ]);
}
