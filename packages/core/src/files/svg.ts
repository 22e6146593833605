import { Parser } from 'htmlparser2';
import { SaxesParser } from 'saxes';
import { cssReferences } from '../html/css.js';
import { maxNesting } from '../html/page.js';

/** Why an SVG counts as active content (decisions §4: formats.svg_active). */
export type SvgActiveReason =
  | 'script'
  | 'event_handler'
  | 'foreign_object'
  | 'external_reference'
  | 'doctype'
  /** Nested past `maxNesting`: not read to the end, so not shown to be inert. */
  | 'nesting';

const activeElements: Readonly<Record<string, SvgActiveReason>> = {
  script: 'script',
  foreignobject: 'foreign_object',
  iframe: 'foreign_object',
  embed: 'foreign_object',
  object: 'foreign_object',
};
/**
 * Matched by local name: browsers resolve `q:href` by its namespace, so with
 * `xmlns:q="http://www.w3.org/1999/xlink"` it is `xlink:href`. Any prefix counts, bound or not.
 */
const referenceAttributes = new Set(['href', 'src']);
/** Embedded raster images load nothing; anything else (another SVG, HTML) could be active. */
const inertDataUrl = /^data:image\/(?:png|jpeg|gif|webp|avif);/i;

const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

function isExternal(value: string): boolean {
  const url = value.trim();
  return !url.startsWith('#') && !inertDataUrl.test(url);
}

/** Where the prolog item at `at` (declaration, comment, DOCTYPE) ends; -1 if none is there. */
function prologItemEnd(text: string, at: number): number {
  const after = (close: string, from: number) => {
    const found = text.indexOf(close, from);
    return found < 0 ? -1 : found + close.length;
  };
  if (text.startsWith('<?', at)) return after('?>', at + 2);
  if (text.startsWith('<!--', at)) return after('-->', at + 4);
  if (text.slice(at, at + 9).toUpperCase() !== '<!DOCTYPE') return -1;
  const close = text.indexOf('>', at);
  const subset = text.indexOf('[', at);
  if (subset < 0 || (close >= 0 && close < subset)) return close < 0 ? -1 : close + 1;
  const subsetEnd = text.indexOf(']', subset);
  return subsetEnd < 0 ? -1 : after('>', subsetEnd);
}

const isSpaceAt = (text: string, at: number) => /\s/.test(text[at] ?? '');

/** Where the root element starts if it is an `<svg>`, else -1 (linear in the text). */
function svgRootAt(text: string): number {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && isSpaceAt(text, at)) at++;
    const end = prologItemEnd(text, at);
    if (end < 0) break;
    at = end;
  }
  const isSvg =
    text.slice(at, at + 4).toLowerCase() === '<svg' && /[\s>/]/.test(text[at + 4] ?? '');
  return isSvg ? at : -1;
}

/** Is the root element an `<svg>`? (a cheap structural test, linear in the text). */
export function looksLikeSvg(text: string): boolean {
  return svgRootAt(text) >= 0;
}

/**
 * The attributes of the root `<svg>` start tag, by name as written (the first of a repeated
 * name), values unescaped no further. Empty when the root is not an `<svg>`. One linear scan
 * that stops at the tag's end, or at the end of the text when the tag is never closed.
 */
export function svgRootAttributes(text: string): ReadonlyMap<string, string> {
  const attributes = new Map<string, string>();
  const root = svgRootAt(text);
  if (root < 0) return attributes;
  let at = root + 4;
  const skipSpace = () => {
    while (at < text.length && isSpaceAt(text, at)) at++;
  };
  const readUntil = (stop: (char: string) => boolean) => {
    const start = at;
    while (at < text.length && !stop(text[at]!)) at++;
    return text.slice(start, at);
  };
  for (;;) {
    skipSpace();
    if (at >= text.length || text[at] === '>' || text.startsWith('/>', at)) return attributes;
    const name = readUntil((c) => /[\s=/>]/.test(c));
    if (name === '') {
      at++; // a stray '/' or '='
      continue;
    }
    skipSpace();
    let value = '';
    if (text[at] === '=') {
      at++;
      skipSpace();
      const quote = text[at];
      if (quote === '"' || quote === "'") {
        at++;
        value = readUntil((c) => c === quote);
        at++;
      } else value = readUntil((c) => /[\s/>]/.test(c));
    }
    if (!attributes.has(name)) attributes.set(name, value);
  }
}

/**
 * The reasons an SVG is active content, sorted and unique: script, event handlers, foreignObject
 * (and other embedding elements), external references (href, src, CSS url() and @import, url()
 * in any other attribute, stylesheet processing instructions, href animation) and any DOCTYPE
 * (entities live there).
 */
export function svgActiveContent(text: string): SvgActiveReason[] {
  const reasons = new Set<SvgActiveReason>();
  const checkCss = (css: string) => {
    if (cssReferences(css).some((ref) => isExternal(ref.url))) reasons.add('external_reference');
  };
  // A presentation attribute (fill, stroke, mask, clip-path, filter, marker-*, cursor…) or an
  // animation value is a CSS value: its url() references load like a style attribute's. Every
  // attribute is read with the style sheet scanner, so none is forgotten and `u\72l(` is read
  // as a browser reads it; @import means nothing outside a style sheet.
  const checkAttributeUrls = (value: string) => {
    const urls = cssReferences(value).filter((ref) => ref.kind === 'url');
    if (urls.some((ref) => isExternal(ref.url))) reasons.add('external_reference');
  };
  if (/<!DOCTYPE/i.test(text)) reasons.add('doctype');
  let style: string[] | undefined;
  let depth = 0;
  const parser: Parser = new Parser(
    {
      onprocessinginstruction(name) {
        if (name.toLowerCase() === '?xml-stylesheet') reasons.add('external_reference');
      },
      onopentag(name, attributes) {
        if (++depth > maxNesting) {
          reasons.add('nesting');
          parser.pause(); // see maxNesting: the rest is not read
          return;
        }
        const tag = localName(name);
        const reason = activeElements[tag];
        if (reason) reasons.add(reason);
        if (tag === 'style') style = [];
        for (const [attribute, value] of Object.entries(attributes)) {
          const attr = attribute.toLowerCase();
          if (localName(attr).startsWith('on')) reasons.add('event_handler');
          else if (referenceAttributes.has(localName(attr)) && isExternal(value))
            reasons.add('external_reference');
          else if (attr === 'style') checkCss(value);
          else checkAttributeUrls(value);
        }
        const animated = (attributes.attributeName ?? attributes.attributename ?? '').toLowerCase();
        if (
          ['set', 'animate'].includes(tag) &&
          (animated.endsWith('href') || animated.startsWith('on'))
        )
          reasons.add('external_reference');
      },
      ontext(data) {
        style?.push(data); // a style sheet may arrive in several pieces
      },
      onclosetag(name) {
        depth--;
        if (localName(name) !== 'style' || style === undefined) return;
        checkCss(style.join(''));
        style = undefined;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return [...reasons].sort();
}

/** Where and why an SVG stops being well-formed XML. */
export interface XmlDefect {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/**
 * The first well-formedness error of an SVG, read as browsers read `image/svg+xml`: strict XML,
 * where any error leaves no picture. Namespace prefixes are not judged (an unbound `xlink:` is a
 * tool's slip that some viewers forgive); a DOCTYPE is refused before this runs.
 */
export function svgXmlDefect(text: string): XmlDefect | undefined {
  const parser = new SaxesParser({ position: true });
  try {
    parser.write(text).close();
    return undefined;
  } catch (error) {
    // saxes throws at the first error when no handler is set: "<file>:<line>:<column>: <reason>".
    const reason = (error as Error).message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    return { line: parser.line, column: parser.column, reason };
  }
}
