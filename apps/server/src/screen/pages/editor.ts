import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

type Field = 'target' | 'parent' | 'before' | 'html';

interface OperationForm {
  readonly kind: 'insert' | 'move' | 'remove' | 'duplicate' | 'replace' | 'swap';
  readonly legend: string;
  readonly fields: readonly Field[];
}

/** The six operations of the editing interface, with the fields each one takes. */
const operationForms: readonly OperationForm[] = [
  { kind: 'insert', legend: 'Insert HTML into an element', fields: ['parent', 'before', 'html'] },
  { kind: 'move', legend: 'Move an element', fields: ['target', 'parent', 'before'] },
  { kind: 'remove', legend: 'Remove an element', fields: ['target'] },
  { kind: 'duplicate', legend: 'Duplicate an element', fields: ['target'] },
  { kind: 'replace', legend: 'Replace an element', fields: ['target', 'html'] },
  { kind: 'swap', legend: "Replace an element's content", fields: ['target', 'html'] },
];

const fieldLabels: Record<Field, string> = {
  target: 'Element (#id or @n)',
  parent: 'Into element (#id or @n)',
  before: 'Before child (optional, #id or @n)',
  html: 'HTML',
};

function field(kind: string, name: Field): SafeHtml {
  const id = `op-${kind}-${name}`;
  const required = name !== 'before';
  const control =
    name === 'html'
      ? html`<textarea id="${id}" name="html" rows="3" class="mono" required></textarea>`
      : html`<input
          id="${id}"
          name="${name}"
          type="text"
          class="mono ref-${name}"
          autocomplete="off"
          spellcheck="false"
          ${required ? html` required` : ''}
        />`;
  return html`<p><label for="${id}">${fieldLabels[name]}</label>${control}</p>`;
}

function operationForm(form: OperationForm): SafeHtml {
  return html`<form class="op-form" data-kind="${form.kind}">
    <fieldset>
      <legend>${form.legend}</legend>
      ${form.fields.map((name) => field(form.kind, name))}
      <p><button type="submit">${form.kind[0]!.toUpperCase() + form.kind.slice(1)}</button></p>
    </fieldset>
  </form>`;
}

export interface EditorPage {
  readonly projectId: string;
  readonly csrfToken: string;
  /** The preview folder (with its pass); the page script adds the page's file to it. */
  readonly previewBase: string;
}

/**
 * The page editor. The preview is a sandboxed frame (no scripts, no same origin) that the page
 * script fills by posting the draft's HTML to the preview route, which answers with
 * `Content-Security-Policy: sandbox`: stored HTML never runs in the screen's origin. When the
 * editor cannot open at all, the page script says why in `lock-status` and hides `editor-body`.
 */
export function editorBody({ projectId, csrfToken, previewBase }: EditorPage): SafeHtml {
  return html`<p><a href="/projects/${projectId}">← Project</a></p>
    <div id="lock-status" class="lock" role="status" aria-live="polite">Taking the lock…</div>
    <div id="editor-body">
      <p>
        <label for="page-select">Page</label>
        <select id="page-select"></select>
      </p>
      <fieldset id="draft-controls" class="plain edit-controls" disabled>
        <legend class="sr-only">Draft</legend>
        <p class="toolbar">
          <button type="button" id="draft-undo">Undo</button>
          <button type="button" id="draft-redo">Redo</button>
          <button type="button" id="save-page" class="primary" aria-describedby="save-state">
            Save
          </button>
          <span id="save-state" class="hint"></span>
          <span id="edit-result" role="status" aria-live="polite"></span>
          <button type="button" id="restart-draft" hidden>
            Drop my changes and start again from the saved page
          </button>
        </p>
      </fieldset>
      <div class="editor">
        <section class="card" aria-labelledby="outline-heading">
          <h2 id="outline-heading">Outline</h2>
          <p class="hint">Choose an element to use it in the forms.</p>
          <div id="outline"></div>
        </section>
        <section class="card" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <iframe
            id="preview-frame"
            name="preview-frame"
            title="Preview of the page (scripts do not run)"
            sandbox="allow-same-origin"
          ></iframe>
          <form
            id="preview-form"
            method="post"
            action="${previewBase}"
            data-base="${previewBase}"
            target="preview-frame"
            hidden
          >
            <input type="hidden" name="csrf_token" value="${csrfToken}" />
            <input type="hidden" name="html" value="" />
          </form>
        </section>
      </div>
      <section
        class="card"
        aria-labelledby="violations-heading"
        id="violations"
        tabindex="-1"
        hidden
      >
        <h2 id="violations-heading">Problems that block the save</h2>
        <p id="violations-source"></p>
        <ul id="violation-list"></ul>
      </section>
      <section class="card" aria-labelledby="change-heading">
        <h2 id="change-heading">Change the page</h2>
        <fieldset id="edit-controls" class="plain edit-controls" disabled>
          <legend class="sr-only">Operations</legend>
          <div class="op-grid">${operationForms.map(operationForm)}</div>
        </fieldset>
      </section>
    </div>`;
}
