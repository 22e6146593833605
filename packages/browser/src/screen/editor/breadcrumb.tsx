import type { ElementHandle } from '@galley/core';
import type { EditorScreen } from './screen.js';
import { useSettledSelection } from './settled.js';
import { elementName } from './words.js';

/** The selection's ancestors, each one a button that selects it. */
export function Breadcrumb({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const shown = model.shown.value;
  const selected = useSettledSelection(model);
  if (!shown || !selected || shown.elements.numberOf(selected) === null)
    return (
      <nav class="breadcrumb" aria-label="Selected element and its ancestors">
        <span class="hint">Nothing selected.</span>
      </nav>
    );
  const chain: ElementHandle[] = [];
  for (let at: ElementHandle | null = selected; at; at = shown.elements.parentOf(at))
    chain.unshift(at);
  const outline = shown.outline();
  const nameOf = (handle: ElementHandle) => {
    const number = shown.elements.numberOf(handle) ?? 0;
    const entry = number > 0 ? outline[number - 1] : undefined;
    return entry ? elementName(entry.tag, entry.id, entry.classes) : '<body>';
  };
  return (
    <nav class="breadcrumb" aria-label="Selected element and its ancestors">
      <ol>
        {chain.map((handle, i) => (
          <li key={i}>
            {handle === selected ? (
              <span aria-current="true">{nameOf(handle)}</span>
            ) : (
              <button
                type="button"
                class="link-button"
                onClick={() => screen.select(handle, { focusTree: true })}
              >
                {nameOf(handle)}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
