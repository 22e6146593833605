import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

export interface EditorPage {
  readonly projectId: string;
  readonly csrfToken: string;
  /** The preview folder (with its pass); the page script adds the page's file to it. */
  readonly previewBase: string;
}

/**
 * The page editor: the page script draws it into `editor-root` (a visual editor: outline tree,
 * preview, element panel). The preview is a frame sandboxed without scripts (`allow-same-origin`
 * only, so the script can read which element is pointed at); the page script posts the draft's
 * HTML to the preview route, which answers with `Content-Security-Policy: sandbox
 * allow-same-origin` and `script-src 'none'`: stored HTML never runs, in any origin.
 */
export function editorBody({ projectId, previewBase }: EditorPage): SafeHtml {
  return html`<p><a href="/projects/${projectId}">← Project</a></p>
    <div id="editor-root" data-preview-base="${previewBase}">
      <p class="hint">Opening the editor…</p>
      <noscript>
        <p>The page editor needs JavaScript. The project page works without it.</p>
      </noscript>
    </div>`;
}
