import type { EditorScreen } from './screen.js';

/** Whether the key goes to a field the person is typing in (the shortcuts then stay out). */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target || typeof target.closest !== 'function') return false;
  return (
    target.isContentEditable ||
    target.closest('input, textarea, select, [contenteditable="true"], dialog') !== null
  );
}

/**
 * The editor's keys, the same wherever the person last clicked (the page, the tree, the preview):
 * Delete removes the selection, Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo, Ctrl/Cmd+S
 * saves, Escape deselects, Enter edits the selection's text, Alt+arrows move it.
 */
export function handleKey(screen: EditorScreen, event: KeyboardEvent): void {
  const { model, actions } = screen;
  const command = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const run = (action: () => unknown) => {
    event.preventDefault();
    event.stopPropagation();
    void Promise.resolve(action()).then(() => screen.keepFocus());
  };
  if (command && key === 's') return run(() => screen.save());
  if (typing(event) || model.editingText.peek()) return;
  if (command && !event.altKey) {
    if (key === 'z' && event.shiftKey) return run(() => actions.step('redo'));
    if (key === 'z') return run(() => actions.step('undo'));
    if (key === 'y') return run(() => actions.step('redo'));
    if (key === 'd') return run(() => actions.duplicate());
    return;
  }
  if (event.altKey && !command) {
    if (key === 'ArrowUp') return run(() => actions.shift('up'));
    if (key === 'ArrowDown') return run(() => actions.shift('down'));
    if (key === 'ArrowRight') return run(() => actions.indent());
    if (key === 'ArrowLeft') return run(() => actions.outdent());
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const selected = model.selection.peek();
  if (key === 'Escape') {
    if (screen.frame?.cancelDrag()) return run(() => undefined);
    if (selected) return run(() => screen.select(null));
    return;
  }
  if (!selected) return;
  if (key === 'Delete' || key === 'Backspace') return run(() => actions.remove());
  // Enter on a button or a link is theirs: the shortcut is for the tree, the preview, the page.
  const onControl = (event.target as HTMLElement | null)?.closest?.('button, a[href], summary');
  if (key === 'Enter' && !event.shiftKey && !onControl)
    return run(() => screen.startEditing(selected));
}
