import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

/** The project list (filled by the page script from GET /api/v1/projects) and the open form. */
export function projectsBody(): SafeHtml {
  return html`<section class="card" aria-labelledby="open-heading">
      <h2 id="open-heading">Open a project folder or a plain site</h2>
      <form
        id="open-form"
        method="post"
        action="/api/v1/projects/folder"
        enctype="multipart/form-data"
      >
        <p>
          <label for="open-zip"
            >ZIP file: a project folder (with <code>project.json</code>) or a plain site (with
            <code>index.html</code>)</label
          >
          <input id="open-zip" name="zip" type="file" accept=".zip,application/zip" required />
        </p>
        <fieldset>
          <legend>For a plain site</legend>
          <p>
            <label for="open-index">Entry page, for a site without <code>index.html</code></label>
            <input id="open-index" name="index" type="text" placeholder="home.html" />
          </p>
          <p>
            <input id="open-drop-external" name="drop_external" type="checkbox" value="true" />
            <label for="open-drop-external"
              >Drop what loads from other sites (scripts, fonts, images from a CDN); an embedded
              video or map becomes a link</label
            >
          </p>
          <p>
            <input id="open-drop-missing" name="drop_missing" type="checkbox" value="true" />
            <label for="open-drop-missing"
              >Drop what loads files missing from the site (or of a type the web medium does not
              allow)</label
            >
          </p>
        </fieldset>
        <p><button type="submit">Open</button></p>
      </form>
      <div id="open-result" aria-live="polite"></div>
    </section>
    <section class="card" aria-labelledby="list-heading">
      <h2 id="list-heading">Your projects</h2>
      <div id="project-list" aria-live="polite"><p>Loading…</p></div>
    </section>`;
}
