// The editing screen's page script: each server-rendered page names its part in `data-screen`.
import { bindLogout, startLogin, startTokens } from './account.js';
import { h } from './dom.js';
import { startEditor } from './editor/start.js';
import { startProject } from './project.js';
import { startProjects } from './projects.js';
import { claimEditorClient, signedIn } from './session.js';

const screens: Readonly<Record<string, () => void | Promise<void>>> = {
  login: startLogin,
  tokens: startTokens,
  projects: startProjects,
  project: startProject,
  editor: startEditor,
};

/** Anything unexpected is said on the page, not only in the console. */
function showCrash(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  document
    .getElementById('main')
    ?.prepend(
      h(
        'p',
        { role: 'alert', class: 'error', id: 'screen-crash' },
        `The screen stopped: ${message}`,
      ),
    );
}

function start(): void {
  bindLogout();
  if (signedIn()) void claimEditorClient();
  const run = screens[document.body.dataset.screen ?? ''];
  if (!run) return;
  try {
    void Promise.resolve(run()).catch(showCrash);
  } catch (error) {
    showCrash(error);
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
