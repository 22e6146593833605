export interface CssReference {
  readonly url: string;
  /** Offset of the reference in the style sheet text. */
  readonly offset: number;
  readonly kind: 'import' | 'url';
}

/** Comments blanked out with spaces, so offsets stay true and commented-out URLs are ignored. */
function blankComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, (comment) => ' '.repeat(comment.length));
}

const urlFunction = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)/gi;
const importString = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;

/** Every `url()` and `@import` of a style sheet (a style element or attribute included). */
export function cssReferences(css: string): CssReference[] {
  const text = blankComments(css);
  const found: CssReference[] = [];
  for (const match of text.matchAll(urlFunction)) {
    const url = match[1] ?? match[2] ?? match[3] ?? '';
    const kind = /@import\s+$/i.test(text.slice(Math.max(0, match.index - 16), match.index))
      ? 'import'
      : 'url';
    found.push({ url, offset: match.index, kind });
  }
  for (const match of text.matchAll(importString))
    found.push({ url: match[1] ?? match[2] ?? '', offset: match.index, kind: 'import' });
  return found.sort((a, b) => a.offset - b.offset);
}
