/**
 * Keys typed while what they are meant for cannot take them yet: a palette block chosen while
 * another element's text is on its way starts its editing only once that text is answered, and
 * the person types meanwhile. Characters go into the block once it is editable; Enter ends that
 * editing, Escape cancels it, Backspace deletes, Shift+Enter breaks the line.
 */
export type HeldKey = string;

/** The keys held, in the order typed, once released (the hold stops at the first release). */
export interface KeyHold {
  release(): readonly HeldKey[];
}

const EDITING_KEYS = new Set(['Enter', 'Escape', 'Backspace']);

/**
 * Holds the keys typed in `doc` from now on: none of them reaches the focused control (a Space or
 * an Enter would press the palette's button again). Shortcuts (Ctrl, Alt, Meta) and Tab pass.
 */
export function holdKeys(doc: Document): KeyHold {
  const keys: HeldKey[] = [];
  const hold = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (event.key.length !== 1 && !EDITING_KEYS.has(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
    keys.push(event.key === 'Enter' && event.shiftKey ? '\n' : event.key);
  };
  doc.addEventListener('keydown', hold, true);
  let held: readonly HeldKey[] | null = null;
  return {
    release: () => {
      if (held) return [];
      doc.removeEventListener('keydown', hold, true);
      held = keys;
      return held;
    },
  };
}

/**
 * Types `keys` into the element being edited in `doc` (focused, its text selected), as the
 * browser types a key: the first character replaces the selected text. Answers the key that ended
 * the editing, Enter or Escape; the keys after it are dropped, as they would have gone elsewhere.
 */
export function typeHeld(doc: Document, keys: readonly HeldKey[]): 'Enter' | 'Escape' | null {
  for (const key of keys) {
    if (key === 'Enter' || key === 'Escape') return key;
    // execCommand is what typing does: input events, the editor's own undo, the selection moved.
    if (key === 'Backspace') doc.execCommand('delete');
    else if (key === '\n') doc.execCommand('insertLineBreak');
    else doc.execCommand('insertText', false, key);
  }
  return null;
}
