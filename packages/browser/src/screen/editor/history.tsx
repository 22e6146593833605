import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { library } from '../library.js';
import { DiffView } from './diff-view.js';
import type { RevisionHtml } from './diff-view.js';
import { HistoryPanel } from './history-panel.js';
import type { HistoryEntry } from './history-panel.js';
import type { EditorScreen } from './screen.js';
import { NoticeAt } from './notice.js';
import { sayFailure } from './words.js';

/**
 * The page's saved revisions: any one viewed read-only in the preview, any two compared side by
 * side. Restoring goes through the project's history (undo and redo on the project page).
 */
export function HistorySection({ screen }: { screen: EditorScreen }) {
  const { model, setup } = screen;
  const entries = useSignal<readonly HistoryEntry[] | null>(null);
  const diff = useSignal<{ before: RevisionHtml; after: RevisionHtml } | null>(null);
  const open = useSignal(false);
  const dialog = useRef<HTMLDialogElement>(null);

  // Read when opened, and again after each save (the folder's revision changes then).
  useSignalEffect(() => {
    if (!open.value) return;
    void model.folderRevision.value;
    void library()
      .attempt(() => setup.client.v1.history(setup.projectId, { per_page: 100 }))
      .then((got) => {
        if (got.ok) entries.value = got.value.entries;
        else model.say(sayFailure(got.failure), 'error', 'history');
      });
  });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (diff.value && !element.open) element.showModal();
    if (!diff.value && element.open) element.close();
  }, [diff.value]);

  const revisionHtml = async (revision: number): Promise<RevisionHtml | null> => {
    const got = await library().attempt(() =>
      setup.client.v1.pageRevision(setup.page.id, revision),
    );
    if (got.ok) return { revision, html: got.value.html };
    model.say(sayFailure(got.failure), 'error', 'history');
    return null;
  };
  const viewing = model.viewing.value;
  return (
    <section class="panel history" aria-labelledby="history-heading">
      <details open={open.value} onToggle={(event) => (open.value = event.currentTarget.open)}>
        <summary>
          <h2 id="history-heading">History of this page</h2>
        </summary>
        {viewing ? (
          <p class="notice notice-info">
            Viewing revision {viewing.revision}, read-only.{' '}
            <button type="button" onClick={() => screen.viewRevision(null)}>
              Back to {model.draft.value ? 'my draft' : 'the page'}
            </button>
          </p>
        ) : null}
        {entries.value === null ? (
          <p class="hint">Reading the history…</p>
        ) : (
          <HistoryPanel
            entries={entries.value}
            pageId={setup.page.id}
            current={viewing?.revision ?? model.folderRevision.value ?? 0}
            onView={(revision) =>
              void revisionHtml(revision).then((got) => got && screen.viewRevision(got))
            }
            onCompare={(a, b) =>
              void Promise.all([revisionHtml(a), revisionHtml(b)]).then(([before, after]) => {
                if (before && after) diff.value = { before, after };
              })
            }
          />
        )}
        <NoticeAt model={model} place="history" />
      </details>
      <dialog
        ref={dialog}
        class="diff-dialog"
        aria-label="Compare two revisions"
        onClose={() => (diff.value = null)}
      >
        {diff.value ? <DiffView before={diff.value.before} after={diff.value.after} /> : null}
        <p>
          <button type="button" onClick={() => (diff.value = null)}>
            Close
          </button>
        </p>
      </dialog>
    </section>
  );
}
