// The login, projects, project and tokens screens of issue 18: a role changes only on Save, a
// revision is confirmed once, destructive acts ask first in a modal dialog, and times are the
// person's own.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { Person, ScreenTest } from './screen-harness.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

/** A request to /api/v1 with the harness account's token; the answer's JSON (or null). */
async function api(
  t: ScreenTest,
  method: string,
  path: string,
  body?: unknown,
  token = t.server.token,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${t.server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-editor-client': `test-${token.slice(5, 12)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
}

async function roleOf(t: ScreenTest, projectId: string, email: string): Promise<string> {
  const got = await api(t, 'GET', `/projects/${projectId}/members`);
  const members = (got.json as { members: { email: string; role: string }[] }).members;
  return members.find((m) => m.email === email)?.role ?? 'none';
}

async function versions(t: ScreenTest, projectId: string): Promise<number> {
  const got = await api(t, 'GET', `/projects/${projectId}/confirmations`);
  return (got.json as { confirmations: unknown[] }).confirmations.length;
}

/** The open modal dialog, after checking that the focus is inside it. */
async function openDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.count()).toBe(1);
  expect(
    await page.evaluate<boolean>('document.querySelector("dialog[open]:modal") !== null'),
  ).toBe(true);
  expect(
    await page.evaluate<boolean>(
      'document.querySelector("dialog[open]").contains(document.activeElement)',
    ),
  ).toBe(true);
  return dialog;
}

/** Escape closes the dialog without acting, and the focus is back on `trigger`. */
async function escapeFrom(page: Page, trigger: Locator): Promise<void> {
  await openDialog(page);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => trigger.and(page.locator(':focus')).count()).toBe(1);
}

describe.skipIf(!!why)('screen: members, confirmations, confirmations dialogs, times', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  async function projectPage(id: string, person?: Person): Promise<Person> {
    const p = person ?? (await t.signedIn());
    await p.page.goto(`${t.server.url}/projects/${id}`);
    await expect.poll(() => p.page.locator('#history-list tbody tr').count()).toBeGreaterThan(0);
    return p;
  }

  /**
   * A signed-in person in Tokyo (en-GB), whose clock is five minutes after the server's (a test
   * clock at 2030-01-01 00:00Z, 09:00 in Tokyo).
   */
  async function inTokyo(): Promise<{ page: Page; context: BrowserContext }> {
    const context = await t.browser.newContext({
      timezoneId: 'Asia/Tokyo',
      locale: 'en-GB',
      viewport: { width: 1360, height: 1600 },
    });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(t.server.clock.now().getTime() + 5 * 60_000));
    await logIn(page, t.server.url, t.server.account.email, t.server.password);
    return { page, context };
  }

  it('changes a role only on Save: the keyboard writes nothing, a redraw keeps the choice', async () => {
    const site = await openSite(t, plainSiteZip());
    await t.server.addAccount('vic@example.org', 'Vic');
    await api(t, 'PUT', `/projects/${site.id}/members`, {
      email: 'vic@example.org',
      role: 'viewer',
    });
    const { page, context, problems } = await projectPage(site.id);
    const row = page.locator('#member-list tr', { hasText: 'vic@example.org' });
    const select = row.getByLabel('Role of Vic');
    const save = row.getByRole('button', { name: 'Save role for Vic' });
    await expect.poll(() => save.isDisabled()).toBe(true);

    // One arrow key moves the choice, and nothing is written.
    await select.focus();
    await page.keyboard.press('ArrowUp');
    expect(await select.inputValue()).toBe('editor');
    await page.waitForTimeout(300);
    expect(await roleOf(t, site.id, 'vic@example.org')).toBe('viewer');
    expect(await save.isEnabled()).toBe(true);
    // Back to the role it has: nothing to save.
    await page.keyboard.press('ArrowDown');
    expect(await save.isDisabled()).toBe(true);

    await select.selectOption('editor');
    // A change of the project that leaves the members as they are (a confirmation) leaves the
    // list as it is, focus and all.
    await select.focus();
    await page.evaluate(
      // Vic is the only viewer.
      `document.querySelector('#member-list select[data-saved-role="viewer"]').setAttribute('data-drawn-before', '')`,
    );
    await page.getByRole('button', { name: 'Confirm revision 1' }).click();
    await expect
      .poll(() => page.locator('#project-status').textContent())
      .toBe('Confirmed as version 1.');
    await page.waitForTimeout(500); // the confirmation's own event is read again meanwhile
    expect(await page.locator('#member-list [data-drawn-before]').count()).toBe(1);
    // Another owner's change of the members draws the list again, at once: the choice not saved
    // yet stays, Save still on.
    await t.server.addAccount('wren@example.org', 'Wren');
    await api(t, 'PUT', `/projects/${site.id}/members`, {
      email: 'wren@example.org',
      role: 'editor',
    });
    await expect.poll(() => page.locator('#member-list tr', { hasText: 'Wren' }).count()).toBe(1);
    expect(await page.locator('#member-list [data-drawn-before]').count()).toBe(0);
    expect(await select.inputValue()).toBe('editor');
    expect(await save.isEnabled()).toBe(true);
    expect(await roleOf(t, site.id, 'vic@example.org')).toBe('viewer');
    await save.click();
    await expect
      .poll(() => page.locator('#project-status').textContent())
      .toBe('vic@example.org is now editor.');
    expect(await roleOf(t, site.id, 'vic@example.org')).toBe('editor');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('confirms a revision once: a double click makes one version, then Confirm is off', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context, problems } = await projectPage(site.id);
    const confirm = page.getByRole('button', { name: 'Confirm revision 1' });
    // The request is held until the button has been seen disabled.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/confirmations', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await confirm.dblclick();
    await expect.poll(() => page.locator('#confirm-button').isDisabled()).toBe(true);
    release();
    await expect
      .poll(() => page.locator('#project-status').textContent())
      .toBe('Confirmed as version 1.');
    await page.waitForTimeout(300);
    expect(await versions(t, site.id)).toBe(1);
    expect(await page.locator('#confirm-button').isDisabled()).toBe(true);
    expect(await page.locator('#confirm-form').textContent()).toContain(
      'Revision 1 is confirmed as version 1',
    );

    // A change makes the new revision confirmable.
    await api(t, 'PATCH', `/projects/${site.id}`, { title: 'Harbour Café 2' });
    await page.reload();
    const next = page.getByRole('button', { name: 'Confirm revision 2' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks before revoking a token, in a modal dialog that Escape cancels', async () => {
    const { page, context, problems } = await t.signedIn();
    await page.goto(`${t.server.url}/account/tokens`);
    await page.getByRole('button', { name: 'Issue token' }).click();
    const issued = page.getByLabel('New token');
    await expect.poll(() => issued.inputValue()).toMatch(/^glly_/);
    const prefix = (await issued.inputValue()).slice(0, 12);
    const row = page.locator('#token-list tbody tr', { hasText: prefix });
    const revoke = row.getByRole('button', { name: /^Revoke token/ });
    await revoke.click();
    const dialog = await openDialog(page);
    expect(await dialog.textContent()).toMatch(/glly_/);
    await escapeFrom(page, revoke);
    expect(await row.textContent()).toContain('active');

    await revoke.click();
    await (await openDialog(page)).getByRole('button', { name: 'Revoke token' }).click();
    await expect
      .poll(() => page.locator('#token-list tbody tr', { hasText: prefix }).textContent())
      .toContain('revoked');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks before removing a member, leaving and deleting the project', async () => {
    const site = await openSite(t, plainSiteZip());
    const wes = await t.server.addAccount('wes@example.org', 'Wes');
    const una = await t.server.addAccount('una@example.org', 'Una');
    for (const email of ['wes@example.org', 'una@example.org'])
      await api(t, 'PUT', `/projects/${site.id}/members`, { email, role: 'editor' });
    const ada = await projectPage(site.id);

    // Remove Una: Escape first, then the dialog's own button.
    const remove = ada.page.getByRole('button', { name: 'Remove Una' });
    await remove.click();
    expect(await (await openDialog(ada.page)).textContent()).toContain('una@example.org');
    await escapeFrom(ada.page, remove);
    expect(await roleOf(t, site.id, 'una@example.org')).toBe('editor');
    await remove.click();
    await (await openDialog(ada.page)).getByRole('button', { name: 'Remove Una' }).click();
    await expect
      .poll(() => ada.page.locator('#project-status').textContent())
      .toBe('Una was removed.');
    expect(await roleOf(t, site.id, 'una@example.org')).toBe('none');

    // Wes leaves.
    const w = await t.person();
    await logIn(w.page, t.server.url, 'wes@example.org', wes.password);
    await projectPage(site.id, w);
    const leave = w.page.getByRole('button', { name: 'Leave the project' });
    await leave.click();
    await escapeFrom(w.page, leave);
    expect(await roleOf(t, site.id, 'wes@example.org')).toBe('editor');
    await leave.click();
    await (await openDialog(w.page)).getByRole('button', { name: 'Leave the project' }).click();
    await w.page.waitForURL(/\/projects$/);
    expect(await roleOf(t, site.id, 'wes@example.org')).toBe('none');

    // Ada deletes the project.
    const del = ada.page.getByRole('button', { name: 'Delete project…' });
    await del.click();
    expect(await (await openDialog(ada.page)).textContent()).toContain('Harbour Café');
    await escapeFrom(ada.page, del);
    expect((await api(t, 'GET', `/projects/${site.id}`)).status).toBe(200);
    await del.click();
    await (await openDialog(ada.page)).getByRole('button', { name: 'Delete project' }).click();
    await ada.page.waitForURL(/\/projects$/);
    expect((await api(t, 'GET', `/projects/${site.id}`)).status).toBe(404);
    expect([...ada.problems, ...w.problems]).toEqual([]);
    expect(una.password).toBeTruthy();
    await ada.context.close();
    await w.context.close();
  });

  it('says what undo and redo of the saved history undo, and asks first', async () => {
    const site = await openSite(t, plainSiteZip());
    await api(t, 'PATCH', `/projects/${site.id}`, { title: 'Harbour Café & Bakery' });
    const { page, context, problems } = await projectPage(site.id);
    const undo = page.getByRole('button', { name: 'Undo the last change' });
    await undo.click();
    const said = (await (await openDialog(page)).textContent())!;
    expect(said).toContain('revision 2');
    expect(said).toContain('Harbour Café & Bakery');
    expect(said).toContain('title');
    expect(said).toContain('Ada');
    await escapeFrom(page, undo);
    expect(await page.locator('h1').textContent()).toBe('Harbour Café & Bakery');

    await undo.click();
    await (await openDialog(page)).getByRole('button', { name: 'Undo revision 2' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café');

    const redo = page.getByRole('button', { name: 'Redo' });
    await expect.poll(() => redo.isEnabled()).toBe(true);
    await redo.click();
    expect(await (await openDialog(page)).textContent()).toContain('revision 2');
    await (await openDialog(page)).getByRole('button', { name: 'Redo revision 2' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café & Bakery');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows times in the person's zone, relative, with the full date in the title", async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await inTokyo();
    await page.goto(`${t.server.url}/projects/${site.id}`);
    const created = page.locator('#project-summary time').first();
    await expect.poll(() => created.textContent()).toBe('5 minutes ago');
    // 00:00 UTC is 09:00 in Tokyo.
    expect(await created.getAttribute('title')).toMatch(/1 January 2030.*09:00/);
    expect(new Date((await created.getAttribute('datetime'))!).getTime()).toBe(
      t.server.clock.now().getTime(),
    );

    // The server renders <time datetime> with readable ISO text; the script makes it the same.
    await page.goto(`${t.server.url}/account/tokens`);
    const cell = page.locator('#token-list tbody tr').first().locator('time').first();
    await expect.poll(() => cell.textContent()).toMatch(/ago|just now|in /);
    expect(await cell.getAttribute('title')).toMatch(/2030/);
    await context.close();
  });

  it('says who is editing and since when, and marks the pages with unsaved changes', async () => {
    const site = await openSite(t, plainSiteZip());
    const bea = await t.server.addAccount('bea.bishop@example.org', 'Bea Bishop');
    await api(t, 'PUT', `/projects/${site.id}/members`, {
      email: 'bea.bishop@example.org',
      role: 'editor',
    });
    // Bea edits index.html with a client of her own: the lock, a draft, one operation.
    const label = { kind: 'screen', label: 'Bea Bishop on the editing screen' };
    expect((await api(t, 'PUT', `/projects/${site.id}/lock`, label, bea.token)).status).toBe(200);
    const draft = await api(t, 'GET', `/pages/${site.index}/draft`, undefined, bea.token);
    const { draft_token } = draft.json as { draft_token: string };
    const operation = { kind: 'insert', parent: '#content', html: '<p>Open on Sundays.</p>' };
    const applied = await api(
      t,
      'POST',
      `/pages/${site.index}/operations`,
      { draft_token, operation },
      bea.token,
    );
    expect(applied.status).toBe(200);

    const { page, context } = await inTokyo();
    await page.goto(`${t.server.url}/projects/${site.id}`);
    const lock = page.locator('#project-lock');
    await expect
      .poll(() => lock.textContent())
      .toBe('Bea Bishop (on the editing screen) is editing since 09:00 · 5 minutes ago.');
    const index = page.locator('#page-list tbody tr', { hasText: 'index.html' });
    await expect
      .poll(() => index.locator('.unsaved').textContent())
      .toBe('Unsaved changes by Bea Bishop · 5 minutes ago');
    const about = page.locator('#page-list tbody tr', { hasText: 'about.html' });
    expect(await about.locator('.unsaved').count()).toBe(0);

    // The lock released: nobody is editing, on the open page at once (not at its next poll).
    await api(t, 'DELETE', `/projects/${site.id}/lock`, undefined, bea.token);
    await expect.poll(() => lock.textContent()).toBe('Nobody is editing this project right now.');
    await context.close();
  });

  it("shows another person's changes as they happen and keeps a title being typed", async () => {
    const site = await openSite(t, plainSiteZip());
    const cyd = await t.server.addAccount('cyd.live@example.org', 'Cyd Live');
    await api(t, 'PUT', `/projects/${site.id}/members`, {
      email: 'cyd.live@example.org',
      role: 'editor',
    });
    const { page, context, problems } = await projectPage(site.id);
    const typed = page.getByLabel('Title', { exact: true });
    await typed.fill('A title not sent yet');

    // Cyd renames the project with a client of her own: heading, summary and history follow.
    const renamed = await api(
      t,
      'PATCH',
      `/projects/${site.id}`,
      { title: 'Renamed by Cyd' },
      cyd.token,
    );
    expect(renamed.status).toBe(200);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Renamed by Cyd');
    const newest = page.locator('#history-list tbody tr').first();
    await expect.poll(() => newest.textContent()).toContain('Cyd Live');
    expect(await newest.textContent()).toContain('title');
    expect(await typed.inputValue()).toBe('A title not sent yet');

    // Cyd takes the lock, then lets it go.
    const lock = page.locator('#project-lock');
    const label = { kind: 'screen', label: 'Cyd Live on the editing screen' };
    expect((await api(t, 'PUT', `/projects/${site.id}/lock`, label, cyd.token)).status).toBe(200);
    await expect.poll(() => lock.textContent()).toContain('Cyd Live');
    await api(t, 'DELETE', `/projects/${site.id}/lock`, undefined, cyd.token);
    await expect.poll(() => lock.textContent()).toBe('Nobody is editing this project right now.');

    // Cyd leaves: the member list follows.
    const cydRow = page.locator('#member-list tr', { hasText: 'cyd.live@example.org' });
    expect(await cydRow.count()).toBe(1);
    const members = await api(t, 'GET', `/projects/${site.id}/members`);
    const cydId = (members.json as { members: { id: string; email: string }[] }).members.find(
      (m) => m.email === 'cyd.live@example.org',
    )!.id;
    const left = await api(
      t,
      'DELETE',
      `/projects/${site.id}/members/${cydId}`,
      undefined,
      cyd.token,
    );
    expect(left.status).toBe(200);
    await expect.poll(() => cydRow.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("reads the project once after its own rename, not again on the rename's event", async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await projectPage(site.id);
    const reads: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (r.method() === 'GET' && pathname === `/api/v1/projects/${site.id}`) reads.push(pathname);
    });
    await page.getByLabel('Title', { exact: true }).fill('Harbour');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour');
    // Past the event's arrival and the page's settling time: a second read would have come.
    await page.waitForTimeout(1_500);
    expect(reads).toHaveLength(1);
    // A save made elsewhere (here an API client of the same account) is read, as before.
    await api(t, 'PATCH', `/projects/${site.id}`, { title: 'Quay' });
    await expect.poll(() => page.locator('h1').textContent()).toBe('Quay');
    expect(reads).toHaveLength(2);
    await context.close();
  });

  // The page is read again on every event, its own act's among them: that read must not take away
  // the refusal the person is reading (CI once saw the focus go, the rename's own event arriving
  // after the refusal of the next rename).
  it('keeps the refusal of an own act on show while the project is read again', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await projectPage(site.id);
    const typed = page.getByLabel('Title', { exact: true });
    await typed.fill('tab\there');
    await page.getByRole('button', { name: 'Rename' }).click();
    const error = page.locator('#project-error');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe(
      'project-error',
    );

    const renamed = await api(t, 'PATCH', `/projects/${site.id}`, { title: 'Quay' });
    expect(renamed.status).toBe(200);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Quay');
    expect(await error.isVisible()).toBe(true);
    expect(await error.innerText()).toContain('title:');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe(
      'project-error',
    );
    expect(await typed.inputValue()).toBe('tab\there');
    await context.close();
  });
});
