// The HTML of a page in two saved revisions, side by side: a table whose rows pair the lines of
// the earlier revision (left) with those of the later one (right). A change is marked by a sign
// and by words for screen readers, never by colour alone; long unchanged runs fold behind a button.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DiffLine, DiffRow } from './diff.js';
import { diffHtml } from './diff.js';

export interface RevisionHtml {
  readonly revision: number;
  readonly html: string;
}

export function DiffView(props: { before: RevisionHtml; after: RevisionHtml }) {
  const { before, after } = props;
  const diff = useMemo(() => diffHtml(before.html, after.html), [before.html, after.html]);
  // The folds opened, for this diff only (other revisions start folded again).
  const [unfolded, setUnfolded] = useState({ of: diff, folds: new Set<number>() });
  const opened = unfolded.of === diff ? unfolded.folds : new Set<number>();
  /** The fold just opened: its first row takes the focus its button had. */
  const [focus, setFocus] = useState<number | null>(null);
  const body = useRef<HTMLTableSectionElement>(null);

  useEffect(() => {
    if (focus === null) return;
    body.current?.querySelector<HTMLElement>(`[data-fold="${focus}"]`)?.focus();
    setFocus(null);
  }, [focus]);

  const open = (index: number) => {
    setUnfolded({ of: diff, folds: new Set(opened).add(index) });
    setFocus(index);
  };
  const names = { before: `Revision ${before.revision}`, after: `Revision ${after.revision}` };

  return (
    <div class="diff-view">
      <p class="diff-summary" role="status">
        {summary(diff.removed, diff.added, before.html === after.html)}
      </p>
      <table class="diff">
        <caption>
          HTML of the page: revision {before.revision} (before) and revision {after.revision}{' '}
          (after)
        </caption>
        <thead>
          <tr>
            <th scope="col" class="diff-number">
              Line
            </th>
            <th scope="col">{names.before} (before)</th>
            <th scope="col" class="diff-number">
              Line
            </th>
            <th scope="col">{names.after} (after)</th>
          </tr>
        </thead>
        <tbody ref={body}>
          {diff.parts.map((part, index) =>
            part.kind !== 'folded' ? (
              <Row key={index} row={part} />
            ) : opened.has(index) ? (
              part.rows.map((row, i) => (
                <Row key={`${index}.${i}`} row={row} fold={i === 0 ? index : undefined} />
              ))
            ) : (
              <tr key={index} class="diff-fold">
                <td colSpan={4}>
                  <button type="button" class="diff-expand" onClick={() => open(index)}>
                    Show {unchangedLines(part.rows.length)}
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

function Row({ row, fold }: { row: DiffRow; fold?: number | undefined }) {
  const changed = row.kind === 'changed';
  return (
    <tr
      class={changed ? 'diff-row diff-changed' : 'diff-row'}
      data-fold={fold}
      tabIndex={fold === undefined ? undefined : -1}
    >
      <Side line={row.before} mark={changed ? 'removed' : null} />
      <Side line={row.after} mark={changed ? 'added' : null} />
    </tr>
  );
}

const marks = {
  removed: { sign: '−', words: 'Removed: ' },
  added: { sign: '+', words: 'Added: ' },
} as const;

/** A line number cell and a text cell; both empty where this side has no line. */
function Side({ line, mark }: { line: DiffLine | null; mark: keyof typeof marks | null }) {
  if (!line)
    return (
      <>
        <td class="diff-number diff-empty" />
        <td class="diff-line diff-empty" />
      </>
    );
  return (
    <>
      <td class="diff-number">{line.number}</td>
      <td class={mark ? `diff-line diff-${mark}` : 'diff-line'}>
        <span class="diff-sign" aria-hidden="true">
          {mark ? marks[mark].sign : ' '}
        </span>
        {mark && <span class="sr-only">{marks[mark].words}</span>}
        <code class="diff-text">{line.text}</code>
      </td>
    </>
  );
}

const unchangedLines = (count: number) => `${count} unchanged ${count === 1 ? 'line' : 'lines'}`;

function summary(removed: number, added: number, identical: boolean): string {
  if (removed === 0 && added === 0)
    return identical
      ? 'The two revisions have the same HTML.'
      : 'The two revisions differ only in white space.';
  const count = (n: number, what: string) => `${n} ${n === 1 ? 'line' : 'lines'} ${what}`;
  return `${count(removed, 'removed')}, ${count(added, 'added')}.`;
}
