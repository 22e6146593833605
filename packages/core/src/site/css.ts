/** A URL written in CSS (`url(…)` or `@import "…"`): the span of its text, quotes excluded. */
export interface CssUrl {
  readonly start: number;
  readonly end: number;
  /** The URL with CSS escapes resolved. */
  readonly url: string;
}

const identifierChar = /[-\w]/;
const mayReferToUrls = /url\(|@import/i;

/**
 * Finds every `url()` and `@import` string in a style sheet, skipping comments and other
 * strings. A scanner rather than a CSS parser: it needs the positions to rewrite in place, and
 * must never fail on the broken CSS real sites carry.
 */
export function scanCss(css: string): CssUrl[] {
  const urls: CssUrl[] = [];
  if (!mayReferToUrls.test(css)) return urls; // most style attributes: colours and sizes
  const lower = css.toLowerCase();
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 2;
    } else if (c === '"' || c === "'") {
      i = stringEnd(css, i);
    } else if (lower.startsWith('url(', i) && !identifierChar.test(css[i - 1] ?? ' ')) {
      i = readUrlFunction(css, i + 4, urls);
    } else if (lower.startsWith('@import', i)) {
      i = skipSpace(css, i + 7);
      const q = css[i];
      if (q === '"' || q === "'") i = readString(css, i, urls);
    } else {
      i++;
    }
  }
  return urls;
}

function readUrlFunction(css: string, from: number, urls: CssUrl[]): number {
  const i = skipSpace(css, from);
  const q = css[i];
  if (q === '"' || q === "'") return readString(css, i, urls);
  let end = i;
  while (end < css.length && css[end] !== ')') end += css[end] === '\\' ? 2 : 1;
  let last = Math.min(end, css.length);
  while (last > i && /\s/.test(css[last - 1] ?? '')) last--;
  urls.push({ start: i, end: last, url: unescapeCss(css.slice(i, last)) });
  return end + 1;
}

function readString(css: string, from: number, urls: CssUrl[]): number {
  const end = stringEnd(css, from);
  const close = css[end - 1] === css[from] && end - 1 > from ? end - 1 : end;
  urls.push({ start: from + 1, end: close, url: unescapeCss(css.slice(from + 1, close)) });
  return end;
}

/** Index just past the string starting at `from` (its closing quote, or the line's end). */
function stringEnd(css: string, from: number): number {
  const quote = css[from];
  let i = from + 1;
  while (i < css.length) {
    const c = css[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else if (c === '\n') return i;
    else i++;
  }
  return css.length;
}

function skipSpace(css: string, from: number): number {
  let i = from;
  while (i < css.length && /\s/.test(css[i] ?? '')) i++;
  return i;
}

function unescapeCss(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:([0-9a-f]{1,6})\s?|\n|(.))/gi, (_, hex: string | undefined, char) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
    }
    return typeof char === 'string' ? char : '';
  });
}
