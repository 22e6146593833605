// Text edits and HTML escaping, apart from rewrite.ts: page fixes and dropped loads write HTML
// too, and rewrite.ts in turn asks drop.ts how to take a load out.
import type { Span } from './html.js';

/** Replace `[start, end)` of the source with `text`. */
export interface Edit extends Span {
  readonly text: string;
}

/** `name="value"`, escaped for a double-quoted attribute. */
export function attribute(name: string, value: string): string {
  return `${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Applies edits to a text. Insertions come first at a position; an edit inside one already
 * applied (an attribute of a removed `<a>` tag) is dropped.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort(
    (a, b) =>
      a.start - b.start || Number(a.end !== a.start) - Number(b.end !== b.start) || b.end - a.end,
  );
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor) continue;
    parts.push(text.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}
