import { useSignal } from '@preact/signals';
import type { ElementHandle } from '@galley/core';
import type { EditorScreen } from './screen.js';
import { useSettledSelection } from './settled.js';
import { NoticeAt } from './notice.js';
import { projectFiles } from './files.js';
import { text } from '../dom.js';

/** The attributes a person is offered for every element, and for some tags only. */
const common = ['id', 'class', 'title'] as const;
const byTag: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  video: ['src', 'width', 'height'],
  audio: ['src'],
  source: ['src'],
  iframe: ['src', 'width', 'height'],
  link: ['href'],
};

/** An attribute value as the draft keeps it: only a double quote needs escaping in a value. */
const raw = (value: string) => value.replaceAll('"', '&quot;');
const shownValue = (value: string) => value.replaceAll('&quot;', '"');

/**
 * The selected element's attributes: each change is one operation (the element replaced by itself
 * with that attribute changed), committed on Enter or when the field is left.
 */
export function Inspector({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const shown = model.shown.value;
  const selected = useSettledSelection(model);
  if (!shown || !selected || shown.elements.numberOf(selected) === null)
    return (
      <section class="panel inspector" aria-labelledby="inspector-heading">
        <h2 id="inspector-heading">Element</h2>
        <p class="hint">Choose an element in the preview or the outline.</p>
        <NoticeAt model={model} place="inspector" />
      </section>
    );
  const tag = shown.elements.tagOf(selected);
  const number = shown.elements.numberOf(selected)!;
  const attributes = new Map(shown.elements.attributesOf(selected));
  attributes.delete('data-galley-n');
  const offered = [...common, ...(byTag[tag] ?? [])];
  const others = [...attributes.keys()].filter((name) => !offered.includes(name));
  const readOnly = !model.editable.value;
  const files = projectFiles(screen, tag);
  return (
    <section class="panel inspector" aria-labelledby="inspector-heading">
      <h2 id="inspector-heading">
        Element <code>&lt;{tag}&gt;</code>
        {number === 0 ? ' (the page body)' : null}
      </h2>
      <NoticeAt model={model} place="inspector" />
      <form class="attributes" onSubmit={(event) => event.preventDefault()} key={number}>
        {files.length ? (
          <datalist id="project-files">
            {files.map((file) => (
              <option key={file} value={file} />
            ))}
          </datalist>
        ) : null}
        {[...offered, ...others].map((name) => (
          <AttributeField
            key={name}
            screen={screen}
            target={selected}
            name={name}
            value={attributes.get(name) ?? null}
            readOnly={readOnly || number === 0}
            list={(name === 'src' || name === 'href') && files.length ? 'project-files' : undefined}
            removable={others.includes(name)}
          />
        ))}
      </form>
      {readOnly || number === 0 ? null : <AddAttribute screen={screen} />}
      {readOnly || number === 0 ? null : <EditHtml screen={screen} target={selected} />}
    </section>
  );
}

function AttributeField(props: {
  screen: EditorScreen;
  target: ElementHandle;
  name: string;
  value: string | null;
  readOnly: boolean;
  removable?: boolean;
  list?: string;
}) {
  const { screen, name, value, readOnly } = props;
  const id = `attribute-${name.replace(/[^a-z0-9-]/gi, '_')}`;
  const commit = (input: HTMLInputElement) => {
    const next = input.value;
    if (next === shownValue(value ?? '')) return;
    if (screen.model.selection.peek() !== props.target) return;
    void screen.actions.setAttributes({ [name]: next === '' && value !== null ? null : raw(next) });
  };
  return (
    <p class="attribute">
      <label for={id}>{name}</label>
      <input
        id={id}
        type="text"
        class="mono"
        value={value === null ? '' : shownValue(value)}
        readOnly={readOnly}
        list={props.list}
        autocomplete="off"
        spellcheck={false}
        placeholder={value === null ? 'not set' : ''}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(event.currentTarget);
          }
          if (event.key === 'Escape') {
            event.currentTarget.value = value === null ? '' : shownValue(value);
            event.stopPropagation();
          }
        }}
        onBlur={(event) => commit(event.currentTarget)}
      />
      {props.removable && !readOnly ? (
        <button
          type="button"
          class="link-button"
          onClick={() =>
            void screen.actions.setAttributes({ [name]: null }).then(() => screen.keepFocus())
          }
        >
          Remove <span class="sr-only">attribute {name}</span>
        </button>
      ) : null}
    </p>
  );
}

const ATTRIBUTE_NAME = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;

function AddAttribute({ screen }: { screen: EditorScreen }) {
  const error = useSignal('');
  return (
    <form
      class="add-attribute"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const name = text(data, 'name').trim().toLowerCase();
        if (!ATTRIBUTE_NAME.test(name) || name === 'data-galley-n') {
          error.value =
            'An attribute name is letters, digits and - _ : . (starting with a letter).';
          return;
        }
        if (name.startsWith('on')) {
          error.value =
            'Event handler attributes (on…) are scripts: they never run here and are not offered.';
          return;
        }
        error.value = '';
        void screen.actions
          .setAttributes({ [name]: raw(text(data, 'value')) })
          .then((done) => done && form.reset());
      }}
    >
      <fieldset>
        <legend>Add an attribute</legend>
        <NewAttributeField field="name" label="Name" required />
        <NewAttributeField field="value" label="Value" />
        {error.value ? (
          <p class="notice notice-error" role="alert">
            {error.value}
          </p>
        ) : null}
        <button type="submit">Add attribute</button>
      </fieldset>
    </form>
  );
}

/** One labelled text field of the add-attribute form, submitted as `field`. */
function NewAttributeField(props: { field: 'name' | 'value'; label: string; required?: boolean }) {
  const id = `new-attribute-${props.field}`;
  return (
    <p>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.field}
        type="text"
        class="mono"
        autocomplete="off"
        required={props.required}
      />
    </p>
  );
}

/** The element's HTML, for what the fields do not reach: one replace operation. */
function EditHtml({ screen, target }: { screen: EditorScreen; target: ElementHandle }) {
  const shown = screen.model.shown.value!;
  return (
    <details class="edit-html">
      <summary>Edit the element's HTML</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const html = text(new FormData(event.currentTarget), 'html');
          if (screen.model.selection.peek() === target) void screen.actions.replaceWith(html);
        }}
      >
        <label for="element-html">HTML of the element</label>
        <textarea id="element-html" name="html" rows={6} class="mono">
          {shown.elements.outerHtml(target)}
        </textarea>
        <button type="submit">Replace the element</button>
      </form>
    </details>
  );
}
