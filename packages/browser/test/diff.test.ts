import fc from 'fast-check';
import { h } from 'preact';
import { describe, expect, it } from 'vitest';
import type { DiffPart, DiffRow } from '../src/screen/editor/diff.js';
import { diffHtml, diffRows, fold, htmlLines } from '../src/screen/editor/diff.js';
import { DiffView } from '../src/screen/editor/diff-view.js';
import { render } from './render-helpers.js';

describe('htmlLines', () => {
  it('starts a line at every start tag; text and end tags stay with what they follow', () => {
    expect(
      htmlLines('<!doctype html><html><body><p class="a">Hello <em>you</em>!</p></body></html>'),
    ).toEqual([
      '<!doctype html>',
      '<html>',
      '<body>',
      '<p class="a">Hello',
      '<em>you</em>!</p></body></html>',
    ]);
  });

  it('keeps the source’s own line breaks, trims lines and drops blank ones', () => {
    expect(htmlLines('<ul>\n  <li>One</li>\n\n  <li>Two</li>\r\n</ul>\n')).toEqual([
      '<ul>',
      '<li>One</li>',
      '<li>Two</li>',
      '</ul>',
    ]);
  });

  it('leaves script and style content whole, and a comment on its own line', () => {
    expect(
      htmlLines(
        '<script>if (a<b && c) x("<p>")</script><!-- a <b> c --><STYLE>p>a{}</STYLE><p>x</p>',
      ),
    ).toEqual([
      '<script>if (a<b && c) x("<p>")</script>',
      '<!-- a <b> c -->',
      '<STYLE>p>a{}</STYLE>',
      '<p>x</p>',
    ]);
  });

  it('does not break at a `<` inside a quoted attribute or in text', () => {
    expect(htmlLines('<a title="1 <b> 2" href=\'x>y\'>a < b</a>')).toEqual([
      '<a title="1 <b> 2" href=\'x>y\'>a < b</a>',
    ]);
  });

  it('an unterminated comment or tag runs to the end', () => {
    expect(htmlLines('<p>a</p><!-- open')).toEqual(['<p>a</p>', '<!-- open']);
    expect(htmlLines('<p>a</p><img src="x')).toEqual(['<p>a</p>', '<img src="x']);
  });
});

const sameRow = (n: number, m: number, text: string): DiffRow => ({
  kind: 'same',
  before: { number: n, text },
  after: { number: m, text },
});

describe('diffRows', () => {
  it('pairs a changed line with what replaced it, and numbers each side', () => {
    expect(diffRows(['a', 'b', 'c'], ['a', 'B', 'c', 'd'])).toEqual([
      sameRow(1, 1, 'a'),
      { kind: 'changed', before: { number: 2, text: 'b' }, after: { number: 2, text: 'B' } },
      sameRow(3, 3, 'c'),
      { kind: 'changed', before: null, after: { number: 4, text: 'd' } },
    ]);
  });

  it('a removal has no line on the right', () => {
    expect(diffRows(['a', 'b', 'c'], ['a', 'c'])).toEqual([
      sameRow(1, 1, 'a'),
      { kind: 'changed', before: { number: 2, text: 'b' }, after: null },
      sameRow(3, 2, 'c'),
    ]);
  });

  it('each column reads back as its revision, and unchanged rows match', () => {
    const lines = fc.array(fc.constantFrom('<p>a</p>', '<p>b</p>', '<div>', '</div>', 'x'), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const rows = diffRows(before, after);
        expect(rows.flatMap((r) => (r.before ? [r.before.text] : []))).toEqual(before);
        expect(rows.flatMap((r) => (r.after ? [r.after.text] : []))).toEqual(after);
        expect(rows.flatMap((r) => (r.before ? [r.before.number] : []))).toEqual(
          before.map((_, i) => i + 1),
        );
        for (const row of rows)
          if (row.kind === 'same') expect(row.before.text).toBe(row.after.text);
        // Nothing is marked changed that a longest common run would keep.
        if (before.join('\n') === after.join('\n'))
          expect(rows.every((r) => r.kind === 'same')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fold', () => {
  const same = (count: number, from = 1) =>
    Array.from({ length: count }, (_, i) => sameRow(from + i, from + i, `line ${from + i}`));
  const change: DiffRow = { kind: 'changed', before: null, after: { number: 99, text: 'new' } };
  const shape = (parts: readonly DiffPart[]) =>
    parts.map((p) => (p.kind === 'folded' ? `fold ${p.rows.length}` : p.kind));

  it('keeps runs of up to six unchanged lines', () => {
    expect(shape(fold([...same(6), change, ...same(6)]))).toEqual([
      ...Array<string>(6).fill('same'),
      'changed',
      ...Array<string>(6).fill('same'),
    ]);
  });

  it('folds a longer run, keeping two lines beside each change', () => {
    expect(shape(fold([...same(10), change, ...same(7), change, ...same(7)]))).toEqual([
      'fold 8',
      'same',
      'same',
      'changed',
      'same',
      'same',
      'fold 3',
      'same',
      'same',
      'changed',
      'same',
      'same',
      'fold 5',
    ]);
  });

  it('a page without changes is one fold', () => {
    expect(shape(fold(same(20)))).toEqual(['fold 20']);
  });
});

describe('diffHtml', () => {
  it('counts the lines removed and added', () => {
    const diff = diffHtml('<p>a</p><p>b</p>', '<p>a</p><p>c</p><p>d</p>');
    expect([diff.removed, diff.added]).toEqual([1, 2]);
  });
});

const page = (paragraphs: readonly string[]) =>
  `<!doctype html><html><head><title>T</title></head><body>${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</body></html>`;
const twenty = Array.from({ length: 20 }, (_, i) => `Paragraph ${i + 1}`);

describe('DiffView', () => {
  const edited = twenty.map((p) => (p === 'Paragraph 12' ? 'Paragraph twelve' : p));
  const view = render(
    h(DiffView, {
      before: { revision: 3, html: page(twenty) },
      after: { revision: 5, html: page([...edited, 'Paragraph 21']) },
    }),
  );

  it('is a table with a caption and column headers naming the revisions', () => {
    const table = view.one('table.diff');
    expect(table.one('caption').text).toBe(
      'HTML of the page: revision 3 (before) and revision 5 (after)',
    );
    const headers = table.all('th');
    expect(headers.map((th) => [th.text, th.attribute('scope')])).toEqual([
      ['Line', 'col'],
      ['Revision 3 (before)', 'col'],
      ['Line', 'col'],
      ['Revision 5 (after)', 'col'],
    ]);
  });

  it('marks a removed line on the left and an added one on the right, not by colour alone', () => {
    const [changed, , appended] = view.all('tr.diff-changed');
    const [, left, , right] = changed!.all('td');
    expect(left!.classes).toContain('diff-removed');
    expect(left!.one('.diff-sign').text).toBe('−');
    expect(left!.one('.diff-sign').attribute('aria-hidden')).toBe('true');
    expect(left!.one('.sr-only').text).toBe('Removed:');
    expect(left!.one('code').text).toBe('<p>Paragraph 12</p>');
    expect(right!.classes).toContain('diff-added');
    expect(right!.one('.diff-sign').text).toBe('+');
    expect(right!.one('.sr-only').text).toBe('Added:');
    expect(right!.one('code').text).toBe('<p>Paragraph twelve</p>');
    expect(changed!.all('td').map((td) => td.text)).toEqual([
      '17',
      '−Removed: <p>Paragraph 12</p>',
      '17',
      '+Added: <p>Paragraph twelve</p>',
    ]);
    // A line only the later revision has: the left side is empty.
    expect(appended!.all('td').map((td) => td.text)).toEqual([
      '',
      '',
      '26',
      '+Added: <p>Paragraph 21</p></body></html>',
    ]);
  });

  it('folds unchanged runs behind a button that says how many lines it hides', () => {
    // Lines 1–16 fold but the two before the change; 18–24 fold but two beside each change.
    expect(view.all('button').map((b) => [b.text, b.attribute('type')])).toEqual([
      ['Show 14 unchanged lines', 'button'],
      ['Show 3 unchanged lines', 'button'],
    ]);
    expect(view.all('tr.diff-row').map((tr) => tr.all('td')[0]!.text)).toEqual([
      '15',
      '16',
      '17',
      '18',
      '19',
      '23',
      '24',
      '25',
      '',
    ]);
    expect(view.all('tr.diff-fold').map((tr) => tr.one('td').attribute('colspan'))).toEqual([
      '4',
      '4',
    ]);
  });

  it('sums up the change, and says when nothing differs', () => {
    expect(view.one('.diff-summary').text).toBe('2 lines removed, 3 lines added.');
    const same = render(
      h(DiffView, {
        before: { revision: 1, html: page(twenty) },
        after: { revision: 2, html: page(twenty) },
      }),
    );
    expect(same.one('.diff-summary').text).toBe('The two revisions have the same HTML.');
    expect(same.all('tr.diff-row')).toEqual([]);
    expect(same.one('button').text).toBe('Show 25 unchanged lines');
    const spaced = render(
      h(DiffView, {
        before: { revision: 1, html: '<p>a</p>\n<p>b</p>' },
        after: { revision: 2, html: '<p>a</p>\n\n  <p>b</p>' },
      }),
    );
    expect(spaced.one('.diff-summary').text).toBe('The two revisions differ only in white space.');
  });

  it('shows the page’s markup as text, never as elements', () => {
    const hostile = render(
      h(DiffView, {
        before: { revision: 1, html: '<p>a</p>' },
        after: {
          revision: 2,
          html: '<p>a</p><script>alert(1)</script><img src=x onerror=alert(2)>',
        },
      }),
    );
    expect(hostile.all('script')).toEqual([]);
    expect(hostile.all('img')).toEqual([]);
    expect(hostile.all('code').map((c) => c.text)).toEqual([
      '<p>a</p>',
      '<p>a</p>',
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
    ]);
  });
});
