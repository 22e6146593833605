import { EDITING_ROOT, editingPaths, pathOf } from '@galley/core';
import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

const roles = ['owner', 'editor', 'viewer'] as const;

/**
 * One project: summary, rename, pages, export, members, history, confirmations and deletion.
 * The page script fills the regions from /api/v1 and shows owner-only controls to owners; when
 * the project cannot be read, it says why once (`project-error`) and hides `project-details`.
 */
export function projectBody(projectId: string): SafeHtml {
  const folder = `${EDITING_ROOT}${pathOf(editingPaths.downloadFolder, { id: projectId })}`;
  return html`<p id="project-badges" aria-live="polite"></p>
    <p id="project-lock" class="editing" aria-live="polite"></p>
    <div id="project-error" tabindex="-1" hidden></div>
    <div id="project-status" role="status" aria-live="polite"></div>
    <div id="project-details">
      <section class="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <dl id="project-summary" class="summary"></dl>
        <p><a id="export-link" href="${folder}" download>Export the folder as ZIP</a></p>
        <form id="rename-form">
          <p>
            <label for="rename-title">Title</label>
            <input id="rename-title" name="title" type="text" maxlength="200" required />
            <button type="submit">Rename</button>
          </p>
        </form>
      </section>
      <section class="card" aria-labelledby="pages-heading">
        <h2 id="pages-heading">Pages</h2>
        <div id="page-list"></div>
      </section>
      <section class="card" aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Confirmed versions</h2>
        <form id="confirm-form">
          <p>
            <label for="confirm-note">Note (optional)</label>
            <textarea id="confirm-note" name="note" rows="2" maxlength="2000"></textarea>
          </p>
          <p><button type="submit" id="confirm-button">Confirm the current revision</button></p>
          <p id="confirm-state" class="hint"></p>
        </form>
        <div id="confirmation-list"></div>
      </section>
      <section class="card" aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <p class="toolbar">
          <button type="button" id="history-undo" disabled>Undo the last change</button>
          <button type="button" id="history-redo" disabled>Redo</button>
        </p>
        <div id="history-list"></div>
      </section>
      <section class="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <div id="member-list"></div>
        <form id="member-form" hidden>
          <fieldset>
            <legend>Add a member or change a role</legend>
            <p>
              <label for="member-email">E-mail of the account</label>
              <input id="member-email" name="email" type="email" required />
            </p>
            <p>
              <label for="member-role">Role</label>
              <select id="member-role" name="role">
                ${roles.map((role) => html`<option value="${role}" ${role === 'editor' ? html` selected` : ''}>${role}</option>`)}
              </select>
            </p>
            <p><button type="submit">Save member</button></p>
          </fieldset>
        </form>
      </section>
      <section class="card danger" aria-labelledby="delete-heading" id="delete-section" hidden>
        <h2 id="delete-heading">Delete the project</h2>
        <p>
          The project, its pages, every confirmed version and the whole history are deleted for
          every member.
        </p>
        <p><button type="button" id="delete-project" class="act">Delete project…</button></p>
      </section>
    </div>`;
}
