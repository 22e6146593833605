import { Parser } from 'htmlparser2';
import { cssReferences } from '../html/css.js';

/** Why an SVG counts as active content (decisions §4: formats.svg_active). */
export type SvgActiveReason =
  'script' | 'event_handler' | 'foreign_object' | 'external_reference' | 'doctype';

const activeElements: Readonly<Record<string, SvgActiveReason>> = {
  script: 'script',
  foreignobject: 'foreign_object',
  iframe: 'foreign_object',
  embed: 'foreign_object',
  object: 'foreign_object',
};
const referenceAttributes = new Set(['href', 'xlink:href', 'src']);
/** Embedded raster images load nothing; anything else (another SVG, HTML) could be active. */
const inertDataUrl = /^data:image\/(?:png|jpeg|gif|webp|avif);/i;

const localName = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();

function isExternal(value: string): boolean {
  const url = value.trim();
  return !url.startsWith('#') && !inertDataUrl.test(url);
}

/** Is the root element an `<svg>`? (a cheap structural test used by content sniffing). */
export function looksLikeSvg(text: string): boolean {
  return /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>\s*)*<svg[\s>/]/i.test(
    text.replace(/^\uFEFF/, ''),
  );
}

/**
 * The reasons an SVG is active content, sorted and unique: script, event handlers, foreignObject
 * (and other embedding elements), external references (href, src, CSS url() and @import,
 * stylesheet processing instructions, href animation) and any DOCTYPE (entities live there).
 */
export function svgActiveContent(text: string): SvgActiveReason[] {
  const reasons = new Set<SvgActiveReason>();
  const checkCss = (css: string) => {
    if (cssReferences(css).some((ref) => isExternal(ref.url))) reasons.add('external_reference');
  };
  if (/<!DOCTYPE/i.test(text)) reasons.add('doctype');
  let style: string[] | undefined;
  const parser = new Parser(
    {
      onprocessinginstruction(name) {
        if (name.toLowerCase() === '?xml-stylesheet') reasons.add('external_reference');
      },
      onopentag(name, attributes) {
        const tag = localName(name);
        const reason = activeElements[tag];
        if (reason) reasons.add(reason);
        if (tag === 'style') style = [];
        for (const [attribute, value] of Object.entries(attributes)) {
          const attr = attribute.toLowerCase();
          if (localName(attr).startsWith('on')) reasons.add('event_handler');
          else if (referenceAttributes.has(attr) && isExternal(value))
            reasons.add('external_reference');
          else if (attr === 'style') checkCss(value);
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
