import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import { maybeAuth } from '../auth/context.js';
import type { SessionAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { problemOf } from '../http/problem.js';
import { screenAssets } from './assets.js';
import { page } from './layout.js';
import type { PageOptions } from './layout.js';
import { editorBody } from './pages/editor.js';
import { loginBody } from './pages/login.js';
import { projectBody } from './pages/project.js';
import { projectsBody } from './pages/projects.js';
import { tokensBody } from './pages/tokens.js';
import { PREVIEW_PASS_TTL_SECONDS, PreviewPasses, previewBase, previewRoutes } from './preview.js';
import { ID_PATTERN as ID, screenHeaders } from './security.js';

/** The signed-in person (a screen session), or null: API tokens do not open the screen. */
function personOf(req: Request): SessionAuth | null {
  const auth = maybeAuth(req);
  return auth?.via === 'session' ? auth : null;
}

/** A path on this service to return to after logging in; anything else goes to the projects. */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000)
    return '/projects';
  return /^\/[/\\]|[\\\s]/.test(value) ? '/projects' : value;
}

function send(res: Response, options: PageOptions): void {
  res.type('text/html; charset=utf-8').send(page(options).value);
}

type PersonPage = (req: Request, res: Response, person: SessionAuth) => void | Promise<void>;

/** A page for signed-in people; others are sent to the login page and brought back after. */
function forPerson(render: PersonPage): RequestHandler {
  return async (req, res) => {
    const person = personOf(req);
    if (!person) {
      res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    await render(req, res, person);
  };
}

function projectIdOf(req: Request): string {
  const id = String(req.params.id);
  if (!ID.test(id)) throw problemOf('not_found', { detail: 'No such project.' });
  return id;
}

/**
 * The editing screen (issue 6): server-rendered pages, each with the CSP of `security.ts`; the
 * page script (packages/browser, `galley-screen.min.js`) does every write through `/auth` and
 * `/api/v1` with the session cookie and `X-CSRF-Token`.
 */
export function screenRouter(deps: Deps): Router {
  const router = express.Router({ caseSensitive: true });
  const { store, clock } = deps;
  const passes = new PreviewPasses(clock, PREVIEW_PASS_TTL_SECONDS, deps.config.previewSecret);

  router.get('/assets/:name', screenAssets());

  router.get('/', screenHeaders, (req, res) => {
    res.redirect(303, personOf(req) ? '/projects' : '/login');
  });

  router.get('/login', screenHeaders, (req, res) => {
    const next = safeNext(req.query.next);
    if (personOf(req)) {
      res.redirect(303, next);
      return;
    }
    send(res, { screen: 'login', title: 'Log in', session: null, body: loginBody(next) });
  });

  router.get(
    '/account/tokens',
    screenHeaders,
    forPerson(async (_req, res, person) => {
      const tokens = await store.tokens.list(person.account.accountNumber);
      const body = tokensBody(tokens, clock.now());
      send(res, { screen: 'tokens', title: 'API tokens', session: person, body });
    }),
  );

  router.get(
    '/projects',
    screenHeaders,
    forPerson((_req, res, person) => {
      send(res, { screen: 'projects', title: 'Projects', session: person, body: projectsBody() });
    }),
  );

  router.get(
    '/projects/:id',
    screenHeaders,
    forPerson((req, res, person) => {
      const id = projectIdOf(req);
      const body = projectBody(id);
      const data = { project: id, account: String(person.account.accountNumber) };
      send(res, { screen: 'project', title: 'Project', session: person, body, data });
    }),
  );

  router.get(
    '/projects/:id/edit',
    screenHeaders,
    forPerson((req, res, person) => {
      const id = projectIdOf(req);
      const pageId =
        typeof req.query.page === 'string' && ID.test(req.query.page) ? req.query.page : '';
      send(res, {
        screen: 'editor',
        title: 'Page editor',
        session: person,
        body: editorBody({
          projectId: id,
          csrfToken: person.csrfToken,
          previewBase: previewBase(id, passes.issue(person.sessionKey, id)),
        }),
        data: { project: id, page: pageId, 'account-name': person.account.name },
      });
    }),
  );

  previewRoutes(router, deps, passes);

  return router;
}
