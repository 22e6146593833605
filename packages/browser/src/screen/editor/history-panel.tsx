// A page's saved revisions, newest first: who saved each and when, a button to view it, and
// check boxes to choose two revisions to compare. Native controls only (buttons, check boxes),
// so the keyboard reaches and works everything; class names only, as the screen's CSP allows.
import { useEffect, useState } from 'preact/hooks';
import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { fullTime, relativeTime } from '../when.js';

export type HistoryEntry = z.output<typeof v1.HistoryEntry>;

export interface HistoryPanelProps {
  readonly entries: readonly HistoryEntry[];
  readonly pageId: string;
  /** The revision the editor shows now. */
  readonly current: number;
  onView(revision: number): void;
  /** The two chosen revisions, older first. */
  onCompare(a: number, b: number): void;
}

/** This page's revisions and the project's creations and folder replacements, newest first. */
export function pageRevisions(entries: readonly HistoryEntry[], pageId: string): HistoryEntry[] {
  return entries
    .filter((e) => e.page?.id === pageId || e.kind === 'create' || e.kind === 'folder')
    .sort((a, b) => b.revision - a.revision);
}

/** The choice after a box is checked or cleared: two at most, a third replaces the earlier. */
export function choose(chosen: readonly number[], revision: number, on: boolean): number[] {
  const others = chosen.filter((r) => r !== revision);
  return on ? [...others, revision].slice(-2) : others;
}

const kinds: Record<HistoryEntry['kind'], string> = {
  create: 'Created',
  save: 'Saved',
  title: 'Title changed',
  folder: 'Folder replaced',
  undo: 'Undo',
  redo: 'Redo',
};

export function HistoryPanel(props: HistoryPanelProps) {
  const { pageId, current } = props;
  const entries = pageRevisions(props.entries, pageId);
  const [picked, setPicked] = useState<readonly number[]>([]);
  const now = useNow(60_000);
  // A revision no longer listed is no longer chosen.
  const chosen = picked.filter((r) => entries.some((e) => e.revision === r));
  const [older, newer] = [...chosen].sort((a, b) => a - b);

  if (entries.length === 0)
    return (
      <div class="history-panel">
        <p class="hint">This page has no saved revisions yet.</p>
      </div>
    );

  return (
    <div class="history-panel">
      <table class="history stack">
        <caption>Saved revisions of this page, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Compare</th>
            <th scope="col">Revision</th>
            <th scope="col">Change</th>
            <th scope="col">By</th>
            <th scope="col">When</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const { revision } = entry;
            const isCurrent = revision === current;
            const at = new Date(entry.at);
            return (
              <tr
                key={revision}
                class={isCurrent ? 'history-current' : undefined}
                aria-current={isCurrent ? 'true' : undefined}
              >
                <td data-label="Compare">
                  <label class="history-pick">
                    <input
                      type="checkbox"
                      checked={chosen.includes(revision)}
                      onChange={(event) =>
                        setPicked(choose(chosen, revision, event.currentTarget.checked))
                      }
                    />
                    <span class="sr-only">Compare revision {revision}</span>
                  </label>
                </td>
                <td data-label="Revision">
                  {revision}
                  {isCurrent && ' '}
                  {isCurrent && <span class="history-badge">current</span>}
                </td>
                <td data-label="Change">
                  <span class="history-kind">{kinds[entry.kind]}</span>{' '}
                  <span class="history-summary">{entry.summary}</span>
                </td>
                <td data-label="By">{entry.by.name}</td>
                <td data-label="When">
                  <time dateTime={entry.at} title={fullTime(at)}>
                    {relativeTime(at, now)}
                  </time>
                </td>
                <td>
                  <button type="button" onClick={() => props.onView(revision)}>
                    View<span class="sr-only"> revision {revision}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div class="history-compare">
        <p class="history-choice" aria-live="polite">
          {older === undefined
            ? 'Choose two revisions to compare.'
            : newer === undefined
              ? `Revision ${older} chosen; choose one more to compare.`
              : `Revisions ${older} and ${newer} chosen.`}
        </p>
        <button
          type="button"
          disabled={newer === undefined}
          onClick={() => {
            if (older !== undefined && newer !== undefined) props.onCompare(older, newer);
          }}
        >
          Compare
        </button>
      </div>
    </div>
  );
}

/** The time now, renewed every `interval` ms so relative times stay true. */
function useNow(interval: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), interval);
    return () => clearInterval(timer);
  }, [interval]);
  return now;
}
