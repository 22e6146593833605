export interface CssReference {
  readonly url: string;
  /** Offset of the reference in the style sheet text. */
  readonly offset: number;
  readonly kind: 'import' | 'url';
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const quote = (c: number) => c === 34 || c === 39;
/** Characters that end an unquoted url(): `)`, white space, quotes and `(` (a bad URL). */
const endsUnquoted = (c: number) => c === 41 || isSpace(c) || quote(c) || c === 40;

function skipSpaces(css: string, at: number): number {
  while (at < css.length && isSpace(css.charCodeAt(at))) at++;
  return at;
}

/** A quoted string starting at `at`: its content and where it ends; none if unterminated. */
function readString(css: string, at: number): { value: string; end: number } | undefined {
  const close = css.indexOf(css[at]!, at + 1);
  return close < 0 ? undefined : { value: css.slice(at + 1, close), end: close + 1 };
}

/** The URL of a `url(` whose parenthesis ends at `at`, and where scanning resumes. */
function readUrlFunction(css: string, at: number): { value?: string; end: number } {
  const start = skipSpaces(css, at);
  if (quote(css.charCodeAt(start))) {
    const string = readString(css, start);
    return string ?? { end: start + 1 };
  }
  let end = start;
  while (end < css.length && !endsUnquoted(css.charCodeAt(end))) end++;
  const close = skipSpaces(css, end);
  return css.charCodeAt(close) === 41 ? { value: css.slice(start, end), end: close + 1 } : { end };
}

/**
 * Every `url()` and `@import` of a style sheet (a `<style>` element or `style` attribute too),
 * comments skipped. A hand-written scanner, linear in the input: the regular expressions a
 * style sheet invites backtrack quadratically on hostile input (`url(` and a megabyte of spaces).
 */
export function cssReferences(css: string): CssReference[] {
  const found: CssReference[] = [];
  const tokens = /\/\*|url\(|@import/gi;
  for (let match = tokens.exec(css); match !== null; match = tokens.exec(css)) {
    const token = match[0].toLowerCase();
    const offset = match.index;
    if (token === '/*') {
      const close = css.indexOf('*/', offset + 2);
      tokens.lastIndex = close < 0 ? css.length : close + 2;
    } else if (token === 'url(') {
      const { value, end } = readUrlFunction(css, offset + 4);
      if (value !== undefined) found.push({ url: value, offset, kind: 'url' });
      tokens.lastIndex = end;
    } else {
      const at = skipSpaces(css, offset + 7);
      if (quote(css.charCodeAt(at))) {
        const string = readString(css, at);
        if (string) found.push({ url: string.value, offset, kind: 'import' });
        tokens.lastIndex = string?.end ?? at + 1;
      } else if (css.slice(at, at + 4).toLowerCase() === 'url(') {
        const { value, end } = readUrlFunction(css, at + 4);
        if (value !== undefined) found.push({ url: value, offset: at, kind: 'import' });
        tokens.lastIndex = end;
      }
    }
  }
  return found;
}
