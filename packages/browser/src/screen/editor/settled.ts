import { useSignal, useSignalEffect } from '@preact/signals';
import type { ElementHandle } from '@galley/core';
import type { EditorModel } from './model.js';

/**
 * The selection, once it is on screen: the panels that describe the selected element (its
 * attributes, its ancestors) follow in the frame after the one that shows the selection itself,
 * so a click is answered by the mark and the outline row at once, whatever the panels cost. A
 * change of the document that takes the settled element away (an attribute set replaces the
 * element) is followed at once, so the panel keeps its fields, and the focus in them.
 */
export function useSettledSelection(model: EditorModel): ElementHandle | null {
  const settled = useSignal(model.selection.peek());
  useSignalEffect(() => {
    const selected = model.selection.value;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => (settled.value = selected));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  });
  const value = settled.value;
  const shown = model.shown.peek();
  if (value && shown && shown.elements.numberOf(value) === null) return model.selection.peek();
  return value;
}
