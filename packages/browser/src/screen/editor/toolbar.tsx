import { useComputed } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { EditorScreen } from './screen.js';
import { NoticeAt } from './notice.js';

/** Room between the sticky toolbar and what is scrolled into view below it. */
const STICKY_GAP_PX = 8;

const NOTHING_TO_SAVE = 'Nothing to save: no change since the saved page.';

/**
 * Why Save is off, as shown beside it: short where it comes and goes with the first change, so
 * the toolbar keeps its height (Save's title says it in full).
 */
function shownBesideSave(why: string): string {
  if (why === NOTHING_TO_SAVE) return 'Nothing to save.';
  return why === 'Read-only.' ? '' : why;
}

/** Undo, Redo, Save, the element actions and the device frames, above the canvas. */
export function Toolbar({ screen }: { screen: EditorScreen }) {
  const { model, actions } = screen;
  const draft = model.draft.value;
  void model.version.value;
  void model.answered.value;
  const editable = model.editable.value;
  // A computed, so a click that moves the selection does not draw the toolbar again.
  const selected = useComputed(() => model.selection.value !== null).value;
  const saveWhy = model.saving.value
    ? 'Saving…'
    : model.conflicted.value
      ? 'This draft cannot be saved: someone saved the page meanwhile.'
      : draft && !draft.canUndo
        ? NOTHING_TO_SAVE
        : !draft
          ? 'Read-only.'
          : '';
  // The second click of a double click is not a second action: it would aim at the element the
  // first one left selected.
  const act = (action: () => Promise<unknown>) => (event: MouseEvent) => {
    if (event.detail > 1) return;
    void action().then(() => screen.keepFocus());
  };
  const bar = useRef<HTMLDivElement>(null);
  useScrollPaddingBelow(bar);
  return (
    <div
      ref={bar}
      class="toolbar editor-toolbar"
      role="toolbar"
      aria-label="Page"
      onKeyDown={(event) => moveAlong(event)}
    >
      <div class="tool-group">
        <button
          type="button"
          disabled={!editable || !draft?.canUndo}
          onClick={act(() => actions.step('undo'))}
          title="Undo (Ctrl+Z)"
        >
          Undo
        </button>
        <button
          type="button"
          disabled={!editable || !draft?.canRedo}
          onClick={act(() => actions.step('redo'))}
          title="Redo (Ctrl+Shift+Z)"
        >
          Redo
        </button>
        <button
          type="button"
          class="primary"
          disabled={saveWhy !== ''}
          title={saveWhy || 'Save (Ctrl+S)'}
          aria-describedby="save-state"
          onClick={act(() => screen.save())}
        >
          Save
        </button>
        <span id="save-state" class="hint">
          {shownBesideSave(saveWhy)}
        </span>
      </div>
      <div class="tool-group" role="group" aria-label="Selected element">
        <button
          type="button"
          disabled={!editable || !selected}
          onClick={act(() => actions.shift('up'))}
          title="Move up (Alt+↑)"
        >
          Move up
        </button>
        <button
          type="button"
          disabled={!editable || !selected}
          onClick={act(() => actions.shift('down'))}
          title="Move down (Alt+↓)"
        >
          Move down
        </button>
        <button
          type="button"
          disabled={!editable || !selected}
          onClick={act(() => actions.duplicate())}
          title="Duplicate (Ctrl+D)"
        >
          Duplicate
        </button>
        <button
          type="button"
          class="danger-button"
          disabled={!editable || !selected}
          onClick={act(() => actions.remove())}
          title="Remove (Delete)"
        >
          Remove
        </button>
      </div>
      <div class="tool-group devices" role="group" aria-label="Preview size">
        {screen.devices.map((device) => (
          <button
            key={device.id}
            type="button"
            aria-pressed={screen.device.value.id === device.id ? 'true' : 'false'}
            onClick={() => (screen.device.value = device)}
          >
            {device.label}
          </button>
        ))}
      </div>
      <NoticeAt model={model} place="toolbar" />
    </div>
  );
}

/**
 * While the toolbar sticks to the top of the window, what the browser scrolls into view (a field
 * reached with Tab, the element being typed into, even inside the preview) stops below it instead
 * of under it: the page's scroll padding is the toolbar's height, kept as the toolbar grows (a
 * notice, narrower windows) and dropped where it does not stick (narrow screens).
 */
function useScrollPaddingBelow(bar: { current: HTMLElement | null }): void {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = element.ownerDocument.documentElement;
    const measure = () => {
      const sticky = getComputedStyle(element).position === 'sticky';
      root.style.scrollPaddingTop = sticky ? `${element.offsetHeight + STICKY_GAP_PX}px` : '';
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = '';
    };
  }, [bar]);
}

/**
 * Arrow keys move between the toolbar's buttons (Left and Right, Home and End), as a toolbar's do;
 * each button also keeps its own Tab stop.
 */
function moveAlong(event: KeyboardEvent): void {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  const bar = event.currentTarget as HTMLElement;
  const buttons = [...bar.querySelectorAll<HTMLButtonElement>('button:not([disabled])')];
  const at = buttons.indexOf(event.target as HTMLButtonElement);
  if (at < 0 || buttons.length === 0) return;
  const last = buttons.length - 1;
  const to =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : event.key === 'ArrowLeft'
          ? (at + last) % buttons.length
          : (at + 1) % buttons.length;
  event.preventDefault();
  buttons[to]!.focus();
}
