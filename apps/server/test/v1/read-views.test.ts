// What the editing screen reads to show others' work: the lock in force, the pages with unsaved
// changes, a page as saved at any revision, and the operations of the caller's own draft.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { isoTime } from '@galley/store';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { startTestServer } from '../platform/harness.js';
import type { DraftBody, LockBody, PagesBody, SavedBody, TestServer } from './helpers.js';
import {
  call,
  caller,
  createProject,
  page,
  projectFolder,
  projectJson,
  screenSession,
  zipForm,
  zipOf,
} from './helpers.js';

type LockStateBody = z.output<typeof v1.LockState>;
type PageRevisionBody = z.output<typeof v1.PageRevision>;
type DraftLogBody = z.output<typeof v1.DraftLogAnswer>;

const lockBody = { kind: 'agent', label: 'Read views' };
const insert = (html: string) => ({ kind: 'insert', parent: '#list', html });

describeStores('read views of a project being edited', (t) => {
  let s: TestServer;
  let bob: { token: string };
  let cy: { token: string };
  beforeAll(async () => {
    s = await startTestServer({ rateLimitPerMinute: 1_000_000 }, t);
    bob = await s.addAccount('bob@example.org', 'Bob');
    cy = await s.addAccount('cy@example.org', 'Cy');
  });
  afterAll(() => s?.close());

  /** A project of Ada's with Bob as `role`; Ada's caller on `client`. */
  async function project(role: 'editor' | 'viewer' = 'editor', client = 'ada-1') {
    const created = await createProject(s, s.token);
    const ada = caller(s, s.token, client);
    const member = await ada('PUT', `/projects/${created.id}/members`, {
      json: { email: 'bob@example.org', role },
    });
    expect(member.status).toBe(200);
    return { ...created, ada, index: created.pageIds['index.html']! };
  }

  /** Opens `client`'s draft of the page and applies the operations; answers the newest token. */
  async function operate(
    as: ReturnType<typeof caller>,
    pageId: string,
    operations: readonly object[],
  ): Promise<string> {
    let token = (await as<DraftBody>('GET', `/pages/${pageId}/draft`)).body.draft_token;
    for (const operation of operations) {
      const done = await as<{ draft_token: string }>('POST', `/pages/${pageId}/operations`, {
        json: { draft_token: token, operation },
      });
      expect(done.status).toBe(200);
      token = done.body.draft_token;
    }
    return token;
  }

  it('GET lock answers the lock in force, or null, to any member', async () => {
    const { id, ada } = await project('viewer');
    const asBob = caller(s, bob.token, null);
    expect((await asBob<LockStateBody>('GET', `/projects/${id}/lock`)).body).toEqual({
      lock: null,
    });
    const taken = await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    const read = await asBob<LockStateBody>('GET', `/projects/${id}/lock`);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    expect(read.body).toEqual({ lock: taken.body.lock });
    expect(read.body.lock).toMatchObject({ holder: { name: 'Ada' }, ttl_seconds: 60 });
    // The screen's session reads it too (a GET needs no CSRF token).
    const { cookie } = await screenSession(s, 'bob@example.org', 'pw-bob@example.org');
    const bySession = await call<LockStateBody>(s, 'GET', `/projects/${id}/lock`, {
      headers: { cookie },
    });
    expect(bySession.body).toEqual({ lock: taken.body.lock });
    // An expired lock is no lock.
    t.clock.advanceSeconds(60);
    expect((await asBob<LockStateBody>('GET', `/projects/${id}/lock`)).body).toEqual({
      lock: null,
    });
    expect((await call(s, 'GET', `/projects/${id}/lock`, { token: cy.token })).status).toBe(404);
    expect((await call(s, 'GET', `/projects/prj_nothing/lock`, { token: s.token })).status).toBe(
      404,
    );
    expect((await call(s, 'GET', `/projects/${id}/lock`)).status).toBe(401);
  });

  it('marks pages with unsaved changes: the newest draft with an operation in effect', async () => {
    const { id, ada, index, pageIds } = await project();
    const about = pageIds['about.html']!;
    const pages = async (query = '') => {
      const list = await caller(
        s,
        bob.token,
        null,
      )<PagesBody>('GET', `/projects/${id}/pages${query}`);
      expect(list.status).toBe(200);
      return Object.fromEntries(list.body.pages.map((p) => [p.file, p.unsaved_draft]));
    };
    expect(await pages()).toEqual({ 'index.html': null, 'about.html': null });
    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    // An open draft with nothing done is no unsaved change.
    await operate(ada, index, []);
    expect((await pages())['index.html']).toBeNull();

    t.clock.advanceSeconds(5);
    const adaAt = t.clock.now();
    await operate(ada, index, [insert('<li>Two</li>')]);
    const adaDraft = { by: { name: 'Ada' }, base_revision: 1, updated_at: iso(adaAt) };
    expect(await pages()).toEqual({ 'index.html': adaDraft, 'about.html': null });
    expect(await pages('?per_page=1')).toEqual({ 'index.html': adaDraft });

    // Undone: nothing in effect; redone: in effect again, changed at the redo.
    expect((await ada('POST', `/pages/${index}/draft/undo`)).status).toBe(200);
    expect((await pages())['index.html']).toBeNull();
    t.clock.advanceSeconds(5);
    const redoneAt = t.clock.now();
    expect((await ada('POST', `/pages/${index}/draft/redo`)).status).toBe(200);
    expect((await pages())['index.html']).toEqual({ ...adaDraft, updated_at: iso(redoneAt) });

    // Bob's draft, changed later, is the one shown; undone, Ada's shows again.
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    const asBob = caller(s, bob.token, 'bob-1');
    expect((await asBob('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    t.clock.advanceSeconds(5);
    const bobAt = t.clock.now();
    await operate(asBob, index, [insert('<li>Bob</li>')]);
    await operate(asBob, about, [{ kind: 'remove', target: '#about' }]);
    const bobDraft = { by: { name: 'Bob' }, base_revision: 1, updated_at: iso(bobAt) };
    expect(await pages()).toEqual({ 'index.html': bobDraft, 'about.html': bobDraft });
    expect((await asBob('POST', `/pages/${index}/draft/undo`)).status).toBe(200);
    expect((await pages())['index.html']).toEqual({ ...adaDraft, updated_at: iso(redoneAt) });
    // A discarded draft is gone.
    expect((await asBob('DELETE', `/pages/${about}/draft`)).status).toBe(204);
    expect((await pages())['about.html']).toBeNull();

    // A saved draft has nothing unsaved; an operation after the save is on the new revision.
    expect((await asBob('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const newest = (await ada<DraftBody>('GET', `/pages/${index}/draft`)).body.draft_token;
    const commit = { draft_token: newest, commit_id: randomUUID() };
    const saved = await ada<SavedBody>('PUT', `/pages/${index}/operations`, { json: commit });
    expect(saved.body.revision).toBe(2);
    expect((await pages())['index.html']).toBeNull();
    await operate(ada, index, [insert('<li>Three</li>')]);
    expect((await pages())['index.html']).toMatchObject({ by: { name: 'Ada' }, base_revision: 2 });
  });

  it('reads the page list’s drafts in one query for the page of the list', async () => {
    const { id } = await project();
    const drafts = s.store.drafts;
    const original = drafts.unsaved.bind(drafts);
    const asked: string[][] = [];
    drafts.unsaved = (projectId, pageIds) => {
      asked.push([...pageIds]);
      return original(projectId, pageIds);
    };
    try {
      const list = await caller(s, s.token, null)<PagesBody>('GET', `/projects/${id}/pages`);
      expect(list.body.pages).toHaveLength(2);
      expect(asked).toEqual([list.body.pages.map((p) => p.id)]);
    } finally {
      drafts.unsaved = original;
    }
  });

  it('answers a page as saved at any revision, to any member', async () => {
    const { id, ada, index, pageIds } = await project('viewer');
    const about = pageIds['about.html']!;
    const folder = projectFolder();
    const text = (file: string) => new TextDecoder().decode(folder.get(file));
    const asBob = caller(s, bob.token, null);
    const first = await asBob<PageRevisionBody>('GET', `/pages/${index}/revisions/1`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      page: { id: index, file: 'index.html' },
      revision: 1,
      html: text('index.html'),
    });

    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const token = await operate(ada, index, [insert('<li id="two">Two</li>')]);
    const commit = { draft_token: token, commit_id: randomUUID() };
    expect((await ada('PUT', `/pages/${index}/operations`, { json: commit })).status).toBe(200);
    const second = await asBob<PageRevisionBody>('GET', `/pages/${index}/revisions/2`);
    expect(second.body.html).toContain('<li id="two">Two</li>');
    expect((await asBob<PageRevisionBody>('GET', `/pages/${index}/revisions/1`)).body).toEqual(
      first.body,
    );
    // A page the save did not touch reads the same at both revisions.
    const aboutAt2 = await asBob<PageRevisionBody>('GET', `/pages/${about}/revisions/2`);
    expect(aboutAt2.body).toMatchObject({ revision: 2, html: text('about.html') });

    // A page added later had no file at revision 1.
    const withNew = projectFolder('Shop', {
      'new.html': page('New', '<p>New</p>'),
      'project.json': projectJson('Shop', [
        { file: 'index.html', title: 'Home', public_url: '/' },
        { file: 'about.html', title: '', public_url: '/about.html' },
        { file: 'new.html', title: 'New', public_url: '/new.html' },
      ]),
    });
    const replaced = await ada('POST', `/projects/${id}/folder`, { form: zipForm(zipOf(withNew)) });
    expect(replaced.status).toBe(200);
    const list = await asBob<PagesBody>('GET', `/projects/${id}/pages`);
    const added = list.body.pages.find((p) => p.file === 'new.html')!;
    const missing = await asBob('GET', `/pages/${added.id}/revisions/1`);
    expect([missing.status, missing.body.code]).toEqual([404, 'no_revision']);
    expect((await asBob<PageRevisionBody>('GET', `/pages/${added.id}/revisions/3`)).body.html).toBe(
      page('New', '<p>New</p>'),
    );

    for (const revision of ['4', '99999']) {
      const absent = await asBob('GET', `/pages/${index}/revisions/${revision}`);
      expect([revision, absent.status, absent.body.code]).toEqual([revision, 404, 'no_revision']);
    }
    for (const revision of ['0', '01', 'abc', '-1', '1.0', '99999999999']) {
      const bad = await asBob('GET', `/pages/${index}/revisions/${revision}`);
      expect([revision, bad.status, bad.body.code]).toEqual([revision, 404, 'not_found']);
    }
    expect((await call(s, 'GET', `/pages/${index}/revisions/1`, { token: cy.token })).status).toBe(
      404,
    );
    expect((await call(s, 'GET', `/pages/pg_nothing/revisions/1`, { token: s.token })).status).toBe(
      404,
    );
  });

  it('answers the operations in effect of the caller’s own draft', async () => {
    const { id, ada, index } = await project();
    const path = `/pages/${index}/draft/log`;
    expect((await ada('GET', path)).body.code).toBe('lock_required');
    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const none = await ada('GET', path);
    expect([none.status, none.body.code]).toEqual([404, 'no_draft']);

    const first = insert('<li id="two">Two</li>');
    const second = insert('<li id="three">Three</li>');
    await operate(ada, index, [first, second]);
    expect((await ada('POST', `/pages/${index}/draft/undo`)).status).toBe(200);
    const log = await ada<DraftLogBody>('GET', path);
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ base_revision: 1, operations: [first] });

    // Another client of the same account, another member, a viewer: not this draft.
    expect((await caller(s, s.token, 'ada-2')('GET', path)).status).toBe(423);
    expect((await caller(s, bob.token, 'bob-1')('GET', path)).status).toBe(423);
    expect((await caller(s, s.token, null)('GET', path)).status).toBe(423);
    expect((await call(s, 'GET', path, { token: cy.token, client: 'cy' })).status).toBe(404);

    // Saved: the draft goes on on the new revision with nothing in effect.
    const token = (await ada<DraftBody>('GET', `/pages/${index}/draft`)).body.draft_token;
    const commit = { draft_token: token, commit_id: randomUUID() };
    expect((await ada('PUT', `/pages/${index}/operations`, { json: commit })).status).toBe(200);
    expect((await ada<DraftLogBody>('GET', path)).body).toEqual({
      base_revision: 2,
      operations: [],
    });
    expect((await ada('DELETE', `/pages/${index}/draft`)).status).toBe(204);
    expect((await ada('GET', path)).status).toBe(404);
  });
});

const iso = isoTime;
