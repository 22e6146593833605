// Random HTML documents for property tests: well-formed markup that still carries what trips
// serializers (entities with and without semicolons, CR and CRLF, quotes inside attribute values,
// upper-case tags, raw text in <script>/<style>/<textarea>, SVG and MathML, <template>, tables,
// comments). Every element may get an id; ids are numbered in document order, so they are unique.
import fc from 'fast-check';

type Tree =
  | { t: 'text'; s: string }
  | { t: 'comment'; s: string }
  | { t: 'raw'; s: string }
  | { t: 'el'; name: string; attrs: Attr[]; id: boolean; children: Tree[]; upper: boolean }
  | { t: 'void'; name: string; attrs: Attr[]; id: boolean };
type Attr = [name: string, value: string | null];

const textTokens = [
  'hello',
  'wörld',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '&amp;',
  '&lt;',
  '&copy',
  '&copy;',
  '&#13;',
  '&#x1F600;',
  '&nbsp;',
  '&notit;',
  'a < b',
  'x > y',
  '"q"',
  "'s'",
  '😀',
  'x=1&y=2',
];
const text = fc
  .array(fc.constantFrom(...textTokens), { minLength: 1, maxLength: 4 })
  .map((parts): Tree => ({ t: 'text', s: parts.join('') }));
const comment = fc
  .constantFrom(' note ', '', 'a -- b', '[if IE]>x<![endif]', ' <p>not a tag</p> ', '\r\n')
  .map((s): Tree => ({ t: 'comment', s }));

const attrValue = fc
  .array(
    fc.constantFrom('a', 'b c', '&amp;', '&', '"', "'", '<', '>', '\n', ' ', 'x&copy=1', 'é'),
    {
      maxLength: 3,
    },
  )
  .map((parts) => parts.join(''));
const attrs = fc
  .uniqueArray(
    fc.tuple(
      fc.constantFrom('class', 'title', 'data-x', 'lang', 'href', 'hidden', 'CLASS'),
      attrValue,
    ),
    { maxLength: 2, selector: ([name]) => name.toLowerCase() },
  )
  .map((list) => list.map(([name, value]): Attr => [name, name === 'hidden' ? null : value]));

const element = (names: string[], children: fc.Arbitrary<Tree[]>): fc.Arbitrary<Tree> =>
  fc.record({
    t: fc.constant('el' as const),
    name: fc.constantFrom(...names),
    attrs,
    id: fc.boolean(),
    children,
    upper: fc.boolean(),
  });
const voidElement = (names: string[]): fc.Arbitrary<Tree> =>
  fc.record({
    t: fc.constant('void' as const),
    name: fc.constantFrom(...names),
    attrs,
    id: fc.boolean(),
  });
const raw = (html: string[]): fc.Arbitrary<Tree> =>
  fc.constantFrom(...html).map((s): Tree => ({ t: 'raw', s }));

/** Self-contained chunks whose content follows their own rules. */
const islands = raw([
  '<script>if (a < b && c) { d = "</div>"; }</script>',
  '<script type="application/json">{"a": "<b>&amp;"}</script>',
  "<script>var s = '&amp;';\r\n</script>",
  '<style>a > b { content: "&"; }</style>',
  '<textarea>\n<b>bold?</b> &amp; &lt;</textarea>',
  '<textarea></textarea>',
  '<pre>\nfirst line\n</pre>',
  '<pre>\n\nkept</pre>',
  '<svg viewBox="0 0 10 10"><path d="M0 0"/><circle r="1"></circle><g><rect width="1"/></g></svg>',
  '<svg><clipPath><rect/></clipPath><foreignObject><p>x &amp; y</p></foreignObject><text>t</text></svg>',
  '<math><mi>x</mi><mo>+</mo><mn>1</mn></math>',
  '<template><tr><td>cell</td></tr></template>',
  '<template><p>inside <b>template</b></p></template>',
  '<noscript><p>Turn on JavaScript</p></noscript>',
  '<table><caption>c</caption><thead><tr><th>h</th></tr></thead>\n<tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
  '<table><tr><td>no tbody</td></tr></table>',
  '<select><option value="1">one</option><option selected>two</option></select>',
  '<a href="?a=1&copy=2&amp;b">link</a>',
  '<iframe src="x.html"></iframe>',
]);

const { body } = fc.letrec<{
  flow: Tree;
  flows: Tree[];
  body: Tree[];
  phrasing: Tree;
  phrasings: Tree[];
}>((tie) => ({
  flow: fc.oneof(
    { depthSize: 'small' },
    text,
    comment,
    islands,
    voidElement(['img', 'br', 'input', 'hr']),
    element(['div', 'section', 'article', 'blockquote'], tie('flows')),
    element(['p', 'h2', 'h3'], tie('phrasings')),
    element(['ul'], fc.array(element(['li'], tie('flows')), { maxLength: 3 })),
  ),
  flows: fc.array(tie('flow'), { maxLength: 4 }),
  body: fc.array(tie('flow'), { minLength: 2, maxLength: 7 }),
  phrasing: fc.oneof(
    { depthSize: 'small' },
    text,
    comment,
    voidElement(['img', 'br', 'input']),
    element(['span', 'b', 'i', 'em'], tie('phrasings')),
  ),
  phrasings: fc.array(tie('phrasing'), { maxLength: 3 }),
}));

const doctypes = [
  '<!DOCTYPE html>',
  '<!doctype html>',
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
  '',
];
const heads = [
  '',
  '<meta charset="utf-8">',
  '<meta charset="utf-8">\n<title>T &amp; U</title>',
  '<title>Page</title><link rel="stylesheet" href="a.css"><style>p{}</style>',
  '<title>x</title><script src="a.js"></script><noscript><link rel="stylesheet" href="n.css"></noscript>',
];

/** A whole document: doctype, head, body with random content, optional trailing comment. */
export const documents: fc.Arbitrary<string> = fc
  .record({
    doctype: fc.constantFrom(...doctypes),
    head: fc.constantFrom(...heads),
    bodyAttrs: attrs,
    body,
    tail: fc.constantFrom('', '\n', '\n<!-- end -->\n'),
  })
  .map(({ doctype, head, bodyAttrs, body, tail }) => {
    const ids = { next: 1 };
    const content = body.map((node) => render(node, ids)).join('');
    return `${doctype}\n<html lang="en">\n<head>${head}</head>\n<body${renderAttrs(bodyAttrs)}>${content}</body>\n</html>${tail}`;
  });

function render(node: Tree, ids: { next: number }): string {
  switch (node.t) {
    case 'text':
    case 'raw':
      return node.s;
    case 'comment':
      return `<!--${node.s}-->`;
    case 'void':
      return `<${node.name}${idAttr(node.id, ids)}${renderAttrs(node.attrs)}>`;
    case 'el': {
      const name = node.upper && node.name.length > 1 ? node.name.toUpperCase() : node.name;
      const open = `<${name}${idAttr(node.id, ids)}${renderAttrs(node.attrs)}>`;
      return `${open}${node.children.map((child) => render(child, ids)).join('')}</${name}>`;
    }
  }
}

function idAttr(has: boolean, ids: { next: number }): string {
  return has ? ` id="e${ids.next++}"` : '';
}

function renderAttrs(list: Attr[]): string {
  return list
    .map(([name, value]) => {
      if (value === null) return ` ${name}`;
      if (/^[a-z0-9]+$/.test(value)) return ` ${name}=${value}`;
      if (!value.includes('"')) return ` ${name}="${value}"`;
      if (!value.includes("'")) return ` ${name}='${value}'`;
      return ` ${name}="${value.replaceAll('"', '&quot;')}"`;
    })
    .join('');
}
