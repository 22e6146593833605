import type { Element } from 'domhandler';
import { decodeHTMLAttribute } from 'entities';

/** An attribute value as written (the draft keeps raw text) → the value a browser reads. */
export function attributeValue(raw: string): string {
  return raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
}

/** The decoded `id` of an element, or null when it has none (an empty id counts as none). */
export function elementId(element: Element): string | null {
  const raw = element.attribs['id'];
  return raw === undefined || raw === '' ? null : attributeValue(raw);
}

/** The class names of an element: its class attribute split at ASCII white space. */
export function elementClasses(element: Element): string[] {
  const raw = element.attribs['class'];
  if (raw === undefined) return [];
  return attributeValue(raw)
    .split(/[\t\n\f\r ]+/)
    .filter((name) => name !== '');
}
