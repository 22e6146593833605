import type { SessionAuth } from '../auth/context.js';
import { html } from './html.js';
import type { SafeHtml } from './html.js';

/** Which page script runs (`data-screen`), and whether it needs the Galley library bundle. */
export type ScreenName = 'login' | 'tokens' | 'projects' | 'project' | 'editor';
const needsLibrary: ReadonlySet<ScreenName> = new Set(['projects', 'project', 'editor']);

export interface PageOptions {
  readonly screen: ScreenName;
  readonly title: string;
  /** The signed-in person, or null on the login page. */
  readonly session: SessionAuth | null;
  readonly body: SafeHtml;
  /** Extra `data-*` values for the page script (names without the `data-` prefix). */
  readonly data?: Readonly<Record<string, string>>;
}

function header(session: SessionAuth | null): SafeHtml {
  if (!session) return html`<header class="top"><span class="brand">Galley</span></header>`;
  return html`<header class="top">
    <a class="brand" href="/projects">Galley</a>
    <nav aria-label="Main">
      <ul>
        <li><a href="/projects">Projects</a></li>
        <li><a href="/account/tokens">Account → API tokens</a></li>
      </ul>
    </nav>
    <form id="logout-form" class="logout" method="post" action="/auth/logout">
      <span class="who">${session.account.name} (${session.account.email})</span>
      <button type="submit">Log out</button>
    </form>
  </header>`;
}

/**
 * Every screen page: no inline script or style (the CSP allows only files from this origin), the
 * session's CSRF token in a meta element for the page script, and a skip link.
 */
export function page(options: PageOptions): SafeHtml {
  const { screen, title, session, body } = options;
  const data = Object.entries(options.data ?? {}).map(
    ([name, value]) => html` data-${name}="${value}"`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Galley</title>
        ${session ? html`<meta name="csrf-token" content="${session.csrfToken}" />` : ''}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/screen.css" />
        <link rel="stylesheet" href="/assets/galley-screen.css" />
        ${needsLibrary.has(screen) ? html`<script src="/assets/galley.min.js" defer></script>` : ''}
        <script src="/assets/galley-screen.min.js" defer></script>
      </head>
      <body data-screen="${screen}" ${data}>
        <a class="skip" href="#main">Skip to the content</a>
        ${header(session)}
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;
}
