import { cssReferences } from '../html/css.js';

/** A URL written in CSS (`url(…)`, `@import`, an `image-set()` string): the span of its text. */
export interface CssUrl {
  /** Start of the URL's own text: after the quote or the spaces that follow `url(`. */
  readonly start: number;
  /** End of that text (exclusive): before the closing quote, or the spaces before `)`. */
  readonly end: number;
  /** The URL with CSS escapes resolved. */
  readonly url: string;
}

/**
 * Every URL of a style sheet (a `<style>` element's text or a `style` attribute's value), read by
 * the links check's tokenizer, so the conversion sees exactly the loads the check of the project
 * will: escaped names (`u\72l(`, `@\69mport`), strings and comments as the browser reads them,
 * `image-set()` strings. Rewriting a renamed reference replaces `[start, end)` and nothing else.
 */
export function scanCss(css: string): CssUrl[] {
  return cssReferences(css).map(({ span, url }) => ({ start: span.start, end: span.end, url }));
}

/** Characters written with a `\` before them in a CSS URL (white space and controls: hex escapes). */
const cssSpecial: ReadonlySet<string> = new Set(['\\', '"', "'", '(', ')']);

/**
 * `url` written so that it reads back as itself in a CSS string or an unquoted `url()` (a rewrite
 * keeps the query and fragment as they were decoded, which may hold a quote or a parenthesis):
 * those escaped with `\`, white space and control characters as hex escapes.
 */
export function cssUrlText(url: string): string {
  let written = '';
  let from = 0;
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    const control = code <= 0x20 || code === 0x7f;
    if (!control && !cssSpecial.has(url.charAt(i))) continue;
    written += `${url.slice(from, i)}\\${control ? `${code.toString(16)} ` : url.charAt(i)}`;
    from = i + 1;
  }
  return from === 0 ? url : written + url.slice(from);
}
