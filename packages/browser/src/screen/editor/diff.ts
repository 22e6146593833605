// A page's HTML compared between two saved revisions, line by line, for a side-by-side view.
// Pure: the view (diff-view.tsx) only draws what this computes.
import { diffArrays } from 'diff/lib/diff/array.js';

/** A line of one revision, numbered from 1 as the view shows it. */
export interface DiffLine {
  readonly number: number;
  readonly text: string;
}

/** A row of the two columns: a line both revisions have, or a change (a side may be empty). */
export type DiffRow =
  | { readonly kind: 'same'; readonly before: DiffLine; readonly after: DiffLine }
  | { readonly kind: 'changed'; readonly before: DiffLine | null; readonly after: DiffLine | null };

/** What the view draws, in order: rows, and unchanged runs folded behind a button. */
export type DiffPart = DiffRow | { readonly kind: 'folded'; readonly rows: readonly DiffRow[] };

export interface HtmlDiff {
  readonly parts: readonly DiffPart[];
  /** Lines only the earlier revision has, and lines only the later one has. */
  readonly removed: number;
  readonly added: number;
}

/** Unchanged lines kept in view next to a change. */
export const CONTEXT_LINES = 2;
/** An unchanged run longer than this is folded (less the context beside its changes). */
export const FOLD_OVER = 6;
/** Past this, the line diff gives up and shows the changed middle as replaced whole. */
const DIFF_TIMEOUT_MS = 1500;

/**
 * Breaks HTML into readable lines: a line starts at every start tag, comment and doctype (and at
 * the source's own line breaks); text and end tags stay on the line of what they follow. The
 * content of <script>, <style>, <textarea> and <title> is not broken up, nor is a tag at a `<`
 * inside a quoted attribute. Lines are trimmed; blank ones are dropped.
 */
export function htmlLines(html: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const cut = (at: number) => {
    if (at > start) pieces.push(html.slice(start, at));
    start = at;
  };
  for (let i = html.indexOf('<'); i !== -1 && i < html.length; i = html.indexOf('<', i)) {
    const next = html[i + 1] ?? '';
    if (html.startsWith('<!--', i)) {
      cut(i);
      const end = html.indexOf('-->', i + 4);
      i = end === -1 ? html.length : end + 3;
    } else if (/[a-zA-Z!?]/.test(next)) {
      cut(i);
      const end = tagEnd(html, i);
      const name = /^<([a-zA-Z][^\s/>]*)/.exec(html.slice(i, end))?.[1]?.toLowerCase();
      i = end;
      if (name && rawText.has(name)) {
        const close = new RegExp(`</${name}`, 'ig');
        close.lastIndex = end;
        i = close.exec(html)?.index ?? html.length;
      }
    } else i += 1;
  }
  cut(html.length);
  return pieces.flatMap((piece) =>
    piece
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
}

/** Elements whose content is text, not tags. */
const rawText: ReadonlySet<string> = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'noembed',
  'noframes',
]);

/** Just past the `>` that ends the tag opened at `from` (quotes honoured). */
function tagEnd(html: string, from: number): number {
  let quote: string | null = null;
  for (let i = from + 1; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return html.length;
}

/** The two revisions' lines compared, with long unchanged runs folded. */
export function diffHtml(before: string, after: string): HtmlDiff {
  const rows = diffRows(htmlLines(before), htmlLines(after));
  let removed = 0;
  let added = 0;
  for (const row of rows) {
    if (row.kind === 'same') continue;
    if (row.before) removed += 1;
    if (row.after) added += 1;
  }
  return { parts: fold(rows), removed, added };
}

/** Rows of the two columns: removed lines beside the added lines that took their place. */
export function diffRows(before: readonly string[], after: readonly string[]): DiffRow[] {
  // The common start and end need no diff; it runs on the middle only.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const middleBefore = before.slice(head, before.length - tail);
  const middleAfter = after.slice(head, after.length - tail);
  const changes =
    middleBefore.length === 0 || middleAfter.length === 0
      ? undefined
      : diffArrays(middleBefore, middleAfter, { timeout: DIFF_TIMEOUT_MS });
  const chunks: { kind: 'same' | 'removed' | 'added'; lines: readonly string[] }[] = [
    { kind: 'same', lines: before.slice(0, head) },
    ...(changes?.map((change) => ({
      kind: change.added
        ? ('added' as const)
        : change.removed
          ? ('removed' as const)
          : ('same' as const),
      lines: change.value,
    })) ?? [
      { kind: 'removed' as const, lines: middleBefore },
      { kind: 'added' as const, lines: middleAfter },
    ]),
    { kind: 'same', lines: before.slice(before.length - tail) },
  ];

  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const gone = removed[i];
      const come = added[i];
      rows.push({
        kind: 'changed',
        before: gone === undefined ? null : { number: left++, text: gone },
        after: come === undefined ? null : { number: right++, text: come },
      });
    }
    removed = [];
    added = [];
  };
  for (const chunk of chunks) {
    if (chunk.kind === 'removed') removed.push(...chunk.lines);
    else if (chunk.kind === 'added') added.push(...chunk.lines);
    else {
      flush();
      for (const text of chunk.lines)
        rows.push({
          kind: 'same',
          before: { number: left++, text },
          after: { number: right++, text },
        });
    }
  }
  flush();
  return rows;
}

/**
 * Folds every run of more than FOLD_OVER unchanged rows, keeping CONTEXT_LINES of it in view
 * next to each change it borders.
 */
export function fold(rows: readonly DiffRow[]): DiffPart[] {
  const parts: DiffPart[] = [];
  for (let i = 0; i < rows.length;) {
    if (rows[i]!.kind !== 'same') {
      parts.push(rows[i++]!);
      continue;
    }
    let end = i;
    while (end < rows.length && rows[end]!.kind === 'same') end++;
    const run = rows.slice(i, end);
    if (run.length <= FOLD_OVER) parts.push(...run);
    else {
      const keepBefore = i > 0 ? CONTEXT_LINES : 0;
      const keepAfter = end < rows.length ? CONTEXT_LINES : 0;
      parts.push(...run.slice(0, keepBefore));
      parts.push({ kind: 'folded', rows: run.slice(keepBefore, run.length - keepAfter) });
      parts.push(...run.slice(run.length - keepAfter));
    }
    i = end;
  }
  return parts;
}
