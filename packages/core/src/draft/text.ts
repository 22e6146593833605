import type { Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { rawTextElements } from './html.js';

/** Outline text is cut at this many characters (code points), with no ellipsis. */
export const outlineTextLength = 80;

/** ASCII white space, the only kind HTML collapses (a no-break space stays). */
const spaceRun = /[\t\n\f\r ]+/g;
const needsCollapse = /[\t\n\f\r]| {2}/;
const isSpace = (code: number): boolean =>
  code === 32 || code === 10 || code === 9 || code === 13 || code === 12;

/** Longest entity reference, so a chunk boundary never cuts one in two. */
const longestReference = 40;
const chunkLength = 256;

/**
 * The element's text content (entities decoded, comments left out), white space collapsed,
 * trimmed and cut at 80 characters. Only as much text as the cut needs is read.
 */
export function outlineText(element: Element): string {
  const text = new TextCollector();
  collect(element, text);
  return text.result();
}

function collect(parent: Element, text: TextCollector): boolean {
  const raw = rawTextElements.has(parent.name);
  for (const child of parent.children) {
    if (isText(child)) {
      if (text.add(child.data, raw)) return true;
    } else if (isTag(child) && collect(child, text)) return true;
  }
  return false;
}

/** Accumulates trimmed, collapsed text: a space is written only once more text follows it. */
class TextCollector {
  private out = '';
  private pendingSpace = false;

  /** Adds raw text; true once enough is collected. */
  add(data: string, raw: boolean): boolean {
    for (let start = 0; start < data.length;) {
      let end = Math.min(data.length, start + chunkLength);
      if (!raw && end < data.length) {
        const amp = data.lastIndexOf('&', end);
        if (amp > start && end - amp < longestReference) end = amp;
      }
      const chunk = data.slice(start, end);
      start = end;
      if (this.addDecoded(!raw && chunk.includes('&') ? decodeHTML(chunk) : chunk)) return true;
    }
    return false;
  }

  private addDecoded(chunk: string): boolean {
    const collapsed = needsCollapse.test(chunk) ? chunk.replace(spaceRun, ' ') : chunk;
    let from = 0;
    let to = collapsed.length;
    if (to > 0 && isSpace(collapsed.charCodeAt(0))) {
      this.pendingSpace = true;
      from = 1;
    }
    if (from >= to) return false;
    const trailing = isSpace(collapsed.charCodeAt(to - 1));
    if (trailing) to -= 1;
    const word = from === 0 && to === collapsed.length ? collapsed : collapsed.slice(from, to);
    this.out += this.pendingSpace && this.out !== '' ? ` ${word}` : word;
    this.pendingSpace = trailing;
    return this.out.length >= 2 * outlineTextLength || this.full();
  }

  private full(): boolean {
    return this.out.length >= outlineTextLength && codePointLength(this.out) >= outlineTextLength;
  }

  result(): string {
    return cutCodePoints(this.out, outlineTextLength);
  }
}

function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) count += 1;
  }
  return count;
}

function cutCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = 0;
  for (let count = 0; count < limit && end < text.length; count++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}

/** An attribute value as written (raw mode) → the value a browser reads. */
export function attributeValue(raw: string): string {
  return raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
}

/** The decoded `id` of an element, or null when it has none (an empty id counts as none). */
export function elementId(element: Element): string | null {
  const raw = element.attribs['id'];
  return raw === undefined || raw === '' ? null : attributeValue(raw);
}

export function elementClasses(element: Element): string[] {
  const raw = element.attribs['class'];
  if (raw === undefined) return [];
  return attributeValue(raw)
    .split(spaceRun)
    .filter((name) => name !== '');
}
