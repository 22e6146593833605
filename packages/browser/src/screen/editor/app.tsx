import { useEffect, useRef } from 'preact/hooks';
import type { EditorScreen } from './screen.js';
import type { EditorLifecycle } from './lifecycle.js';
import { Canvas } from './canvas.js';
import { OutlineTree } from './tree.js';
import { Toolbar } from './toolbar.js';
import { Inspector } from './inspector.js';
import { Palette } from './palette.js';
import { Problems } from './problems.js';
import { NoticeAt } from './notice.js';
import { Breadcrumb } from './breadcrumb.js';
import { HistorySection } from './history.js';
import { loginAgainUrl } from '../session.js';

/** The editor: toolbar above; outline, canvas and the panels for the selection side by side. */
export function EditorApp({
  screen,
  lifecycle,
}: {
  screen: EditorScreen;
  lifecycle: EditorLifecycle;
}) {
  const { model, setup } = screen;
  const editable = model.editable.value;
  return (
    <div class={`visual-editor${editable ? '' : ' is-read-only'}`}>
      <div class="editor-head">
        <PagePicker screen={screen} />
        <p
          id="lock-status"
          class={`lock ${editable ? 'held' : 'other'}`}
          role="status"
          aria-live="polite"
        >
          {screen.sessionEnded.value ? (
            <>
              Your session has ended — <a href={loginAgainUrl()}>sign in again</a>.
            </>
          ) : (
            screen.lockLine.value
          )}
          {screen.takeOver.value && (
            <>
              {' '}
              <button type="button" class="take-over" onClick={screen.takeOver.value}>
                Edit here
              </button>
            </>
          )}
        </p>
      </div>
      <Toolbar screen={screen} />
      <StaleDialog screen={screen} lifecycle={lifecycle} />
      <div class="editor-grid">
        <section class="panel outline-panel" aria-labelledby="outline-heading">
          <h2 id="outline-heading">Outline</h2>
          <OutlineTree screen={screen} />
          <NoticeAt model={model} place="tree" />
        </section>
        <section class="panel canvas-panel" aria-labelledby="canvas-heading">
          <h2 id="canvas-heading" class="sr-only">
            Preview of {setup.page.file}
          </h2>
          <Breadcrumb screen={screen} />
          <Canvas screen={screen} />
          <NoticeAt model={model} place="canvas" />
          <p class="hint">
            {editable
              ? 'Click to select · double-click or Enter to edit text · drag to move · Delete removes · Ctrl+Z undoes · Ctrl+S saves.'
              : 'Read-only: click an element to see it in the outline and its attributes.'}
          </p>
        </section>
        <div class="side">
          <Inspector screen={screen} />
          <Palette screen={screen} />
        </div>
      </div>
      <Problems screen={screen} />
      <HistorySection screen={screen} />
    </div>
  );
}

function PagePicker({ screen }: { screen: EditorScreen }) {
  const { setup } = screen;
  return (
    <p class="page-picker">
      <label for="page-select">Page</label>
      <select
        id="page-select"
        value={setup.page.id}
        onChange={(event) => {
          const url = new URL(location.href);
          url.searchParams.set('page', event.currentTarget.value);
          location.assign(url.toString());
        }}
      >
        {setup.pages.map((page) => (
          <option key={page.id} value={page.id}>
            {page.file} — {page.title}
            {page.unsaved_draft ? ` • unsaved changes (${page.unsaved_draft.by.name})` : ''}
          </option>
        ))}
      </select>
    </p>
  );
}

/** A draft older than the saved page says so as it opens, and lets the person choose. */
function StaleDialog({ screen, lifecycle }: { screen: EditorScreen; lifecycle: EditorLifecycle }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stale = screen.stale.value;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (stale && !element.open) element.showModal();
    if (!stale && element.open) element.close();
  }, [stale]);
  return (
    <dialog
      ref={dialog}
      class="stale-dialog"
      aria-labelledby="stale-heading"
      onCancel={() => (screen.stale.value = null)}
    >
      {stale ? (
        <>
          <h2 id="stale-heading">This draft is older than the saved page</h2>
          <p>
            Your unsaved changes were made on revision {stale.base}; the page has been saved since,
            now at revision {stale.current}. Saved since:
          </p>
          <ul>
            {stale.since.length ? (
              stale.since.map((line) => <li key={line}>{line}</li>)
            ) : (
              <li>(the history is not available)</li>
            )}
          </ul>
          <p>
            <button type="button" class="primary" onClick={() => void lifecycle.reapply()}>
              Re-apply my changes on revision {stale.current}
            </button>{' '}
            <button type="button" class="danger-button" onClick={() => void lifecycle.restart()}>
              Drop my changes
            </button>{' '}
            <button type="button" onClick={() => (screen.stale.value = null)}>
              Decide later
            </button>
          </p>
        </>
      ) : null}
    </dialog>
  );
}
