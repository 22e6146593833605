export interface CssReference {
  readonly url: string;
  /** Offset of the reference in the style sheet text. */
  readonly offset: number;
  readonly kind: 'import' | 'url';
}

/** Comments blanked out with spaces, so offsets stay true and commented-out URLs are ignored. */
function blankComments(css: string): string {
  if (!css.includes('/*')) return css;
  return css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, (comment) => ' '.repeat(comment.length));
}

const urlFunction = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)/gi;
const importString = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;
const importBefore = /@import\s+$/i;

/** Every `url()` and `@import` of a style sheet (a style element or attribute included). */
export function cssReferences(css: string): CssReference[] {
  const found: CssReference[] = [];
  if (!/url\(|@import/i.test(css)) return found;
  const text = blankComments(css);
  for (const match of text.matchAll(urlFunction)) {
    const url = match[1] ?? match[2] ?? match[3] ?? '';
    const before = text.slice(Math.max(0, match.index - 16), match.index);
    found.push({ url, offset: match.index, kind: importBefore.test(before) ? 'import' : 'url' });
  }
  if (text.includes('@import'))
    for (const match of text.matchAll(importString))
      found.push({ url: match[1] ?? match[2] ?? '', offset: match.index, kind: 'import' });
  return found.sort((a, b) => a.offset - b.offset);
}
