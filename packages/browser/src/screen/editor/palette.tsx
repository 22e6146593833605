import { useSignal } from '@preact/signals';
import type { ElementHandle } from '@galley/core';
import type { Placement } from './actions.js';
import type { EditorScreen } from './screen.js';
import { holdKeys } from './held-keys.js';
import { NoticeAt } from './notice.js';
import { projectFiles } from './files.js';
import { text } from '../dom.js';

interface Block {
  readonly id: string;
  readonly label: string;
  html(screen: EditorScreen): string;
  /** Its text is edited in place right after it lands. */
  readonly editText?: boolean;
}

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

const blocks: readonly Block[] = [
  { id: 'heading', label: 'Heading', html: () => '<h2>Heading</h2>', editText: true },
  { id: 'paragraph', label: 'Paragraph', html: () => '<p>New paragraph.</p>', editText: true },
  {
    id: 'image',
    label: 'Image',
    html: (screen) => {
      const image = projectFiles(screen, 'img')[0];
      return image
        ? `<img src="${escapeAttribute(image)}" alt="">`
        : '<img src="" alt="Describe the image">';
    },
  },
  {
    id: 'link',
    label: 'Link',
    html: (screen) => {
      const page = projectFiles(screen, 'a')[0] ?? 'index.html';
      return `<a href="${escapeAttribute(page)}">Link text</a>`;
    },
    editText: true,
  },
  { id: 'list', label: 'List', html: () => '<ul><li>First item</li><li>Second item</li></ul>' },
  {
    id: 'section',
    label: 'Section',
    html: () => '<section><h2>Section heading</h2><p>Section text.</p></section>',
  },
];

const placements: readonly { id: Placement; label: string }[] = [
  { id: 'after', label: 'After' },
  { id: 'before', label: 'Before' },
  { id: 'inside', label: 'Inside, at the end' },
];

/** Inserting: a few blocks and raw HTML, before, after or inside the selection. */
export function Palette({ screen }: { screen: EditorScreen }) {
  const { model, actions } = screen;
  const where = useSignal<Placement>('after');
  const editable = model.editable.value;
  const insert = async (html: string, editText = false) => {
    // Editing starts as soon as the block is shown, not at the server's answer: keys typed right
    // after the click go into it (its commit waits for the insert's answer). A block that waits
    // for a text on its way is shown only after it: the keys typed meanwhile are held for it.
    const held = editText && actions.waitsToInsert() ? holdKeys(document) : null;
    let editing = false;
    const startEditing = (inserted: ElementHandle) => {
      screen.startEditing(inserted, held?.release());
      editing = model.editingText.peek() === inserted;
    };
    const done = await actions.insert(html, where.value, editText ? startEditing : undefined);
    held?.release(); // not shown: what was typed goes with it
    if (!done || !editing) screen.keepFocus();
    return done;
  };
  return (
    <section class="panel palette" aria-labelledby="palette-heading">
      <h2 id="palette-heading">Insert</h2>
      <fieldset class="placement" disabled={!editable}>
        <legend>Where, relative to the selected element</legend>
        {placements.map((placement) => (
          <label key={placement.id} class="choice">
            <input
              type="radio"
              name="placement"
              value={placement.id}
              checked={where.value === placement.id}
              onChange={() => (where.value = placement.id)}
            />{' '}
            {placement.label}
          </label>
        ))}
      </fieldset>
      <div class="blocks">
        {blocks.map((block) => (
          <button
            key={block.id}
            type="button"
            disabled={!editable}
            onClick={() => void insert(block.html(screen), block.editText)}
          >
            {block.label}
          </button>
        ))}
      </div>
      <details class="raw-html">
        <summary>Raw HTML</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const html = text(new FormData(form), 'html');
            if (html.trim() === '')
              return model.say('Write some HTML to insert first.', 'info', 'palette');
            void insert(html).then((done) => done && form.reset());
          }}
        >
          <label for="raw-html">HTML to insert</label>
          <textarea id="raw-html" name="html" rows={4} class="mono" disabled={!editable} />
          <button type="submit" disabled={!editable}>
            Insert HTML
          </button>
        </form>
      </details>
      <NoticeAt model={model} place="palette" />
    </section>
  );
}
