// The visual editor driven as a person drives it: the outline tree, the preview, the palette, the
// toolbar, and the notices shown next to the part an action came from.
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * A call of the editing interface as an agent with its own X-Editor-Client (another client than
 * the screen's): the status must be 200, or 204 for a DELETE.
 */
export function agentOf(server: { url: string; token: string }, client: string) {
  return async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        'x-editor-client': client,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    expect([method, path, res.status]).toEqual([method, path, method === 'DELETE' ? 204 : 200]);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
}

/** An editor test on a loaded host (two browsers, edits and a save): more than the default 30 s. */
export const SLOW_MS = 90_000;

/** Where a notice is shown: next to the part of the screen whose action it answers. */
export type Place = 'toolbar' | 'inspector' | 'palette' | 'canvas' | 'tree' | 'problems';

/** The preview's frame element (replaced by a new one on each full load of the preview). */
export const PREVIEW = 'iframe[title="Preview"]';

/** The preview's document as a locator: it follows the frame through its replacements. */
export const previewOf = (page: Page) => page.frameLocator(PREVIEW);

/** The preview's frame as it is now, once the page's elements are in it. */
export async function previewFrame(page: Page): Promise<Frame> {
  await previewOf(page).locator('body [data-galley-n]').first().waitFor();
  const handle = await page.locator(PREVIEW).elementHandle();
  return (await handle.contentFrame())!;
}

export const tree = (page: Page) => page.getByRole('tree', { name: 'Outline' });

/** The outline's row of the element with this id (`p#intro Fresh bread…`). */
export const rowOf = (page: Page, id: string) =>
  tree(page).getByRole('treeitem', { name: new RegExp(`^[a-z][a-z0-9-]*#${id}(?=[ .]|$)`) });

/** How many rows of the outline show the element with this id (0 or 1 on a small page). */
export const outlineHas = (page: Page, id: string) => rowOf(page, id).count();

export const selectedRow = (page: Page) =>
  tree(page).locator('[role=treeitem][aria-selected=true]');

/** The message shown next to a part of the screen ('' when none is shown there). */
export const notice = (page: Page, place: Place): Locator =>
  page.locator(`p.notice[data-place="${place}"]`);

export const noticeText = async (page: Page, place: Place): Promise<string> =>
  (await notice(page, place).isVisible()) ? ((await notice(page, place).textContent()) ?? '') : '';

/** The notices on show anywhere, as `place: text` (a notice's region stays, empty, when quiet). */
export const noticesShown = (page: Page) =>
  page.evaluate<string[]>(
    `[...document.querySelectorAll('p.notice[data-place]')]
      .filter((p) => p.textContent !== '')
      .map((p) => p.dataset.place + ': ' + p.textContent)`,
  );

export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The items of the Problems panel. */
export const problemItems = (page: Page) => page.locator('#problems li');

/** Opens the editor and waits until this tab holds the lock and the draft is in the preview. */
export async function editing(page: Page, url: string): Promise<void> {
  // A step that does not happen fails as itself, well before the test's own time runs out.
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  await expect.poll(() => page.locator('#lock-status').textContent()).toContain('You are editing');
  await previewFrame(page);
  await expect.poll(() => tree(page).getByRole('treeitem').count()).toBeGreaterThan(0);
}

/** The editor of a site's index page (openSite's `editor` opens the project's default page). */
export const indexEditor = (site: { editor: string; index: string }) =>
  `${site.editor}?page=${site.index}`;

export type Placement = 'After' | 'Before' | 'Inside, at the end';

/**
 * Inserts HTML from the palette's raw HTML field, placed relative to the element with id `at`
 * (chosen in the outline), and waits until the palette is free again.
 */
export async function insertHtml(
  page: Page,
  html: string,
  { at, where = 'Inside, at the end' }: { at: string; where?: Placement },
): Promise<void> {
  await rowOf(page, at).click();
  await expect.poll(() => selectedRow(page).textContent()).toContain(`#${at}`);
  await page.getByRole('radio', { name: where, exact: true }).check();
  const raw = page.locator('details.raw-html');
  if ((await raw.getAttribute('open')) === null) await raw.getByText('Raw HTML').click();
  await page.getByLabel('HTML to insert').fill(html);
  await button(page, 'Insert HTML').click();
}

/** Inserts `<p id="…">…</p>` at the end of #content, and waits for its row in the outline. */
export async function insertParagraph(page: Page, id: string, text = id): Promise<void> {
  await insertHtml(page, `<p id="${id}">${text}</p>`, { at: 'content' });
  await expect.poll(() => outlineHas(page, id)).toBe(1);
}

/** Where the screen keeps its editor's client id (X-Editor-Client), per tab. */
export const EDITOR_CLIENT_KEY = 'galley.editor-client';

/**
 * Holds the editor's first operation request until `release` is called, then lets it through
 * (or fails it, as a dropped connection); `sent` lists the kinds of the operations posted.
 */
export async function holdFirstOperation(page: Page, then: 'continue' | 'abort' = 'continue') {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  await page.route('**/operations', async (route) => {
    const body = route.request().postDataJSON() as { operation?: { kind: string } };
    sent.push(body.operation?.kind ?? route.request().method());
    if (sent.length > 1) return route.continue();
    await held;
    return then === 'abort' ? route.abort('connectionreset') : route.continue();
  });
  return { release, sent };
}

/** The page's draft as the server holds it for the editor in `page` (its own client id). */
export async function serverDraftBody(
  server: { url: string; token: string },
  page: Page,
  pageId: string,
): Promise<{ html: string; can_undo: boolean; can_redo: boolean }> {
  const client = await page.evaluate<string>(`sessionStorage.getItem('${EDITOR_CLIENT_KEY}')`);
  const draft = await fetch(`${server.url}/api/v1/pages/${pageId}/draft`, {
    headers: { authorization: `Bearer ${server.token}`, 'x-editor-client': client },
  });
  expect(draft.status).toBe(200);
  return (await draft.json()) as { html: string; can_undo: boolean; can_redo: boolean };
}

/** The HTML of the page's draft as the server holds it (see `serverDraftBody`). */
export async function serverDraft(
  server: { url: string; token: string },
  page: Page,
  pageId: string,
): Promise<string> {
  return (await serverDraftBody(server, page, pageId)).html;
}
