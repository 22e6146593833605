// The editing flow of editing-api-v1.md, step by step, over HTTP on loopback.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@galley/core';
import type {
  DraftBody,
  HistoryBody,
  LockBody,
  OperationBody,
  PagesBody,
  ProjectBody,
  SavedBody,
  TestServer,
} from './helpers.js';
import {
  call,
  caller,
  createProject,
  projectFolder,
  startV1Server,
  zipForm,
  zipOf,
} from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

const lockBody = { kind: 'agent', label: 'Import bot' };

describe('the editing flow', () => {
  it('runs steps 1 to 5, with 3a, 4a and 4b', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const index = pageIds['index.html']!;
    const ada = caller(s, s.token, 'run-1');

    // Step 2 needs the lock: without it, 409 lock_required.
    const early = await ada('GET', `/pages/${index}/draft`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('lock_required');

    // 1: PUT lock.
    const lock = await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(lock.status).toBe(200);
    expect(lock.body.lock).toEqual({
      kind: 'agent',
      label: 'Import bot',
      holder: { name: 'Ada' },
      acquired_at: '2030-01-01T00:00:00.000+00:00',
      expires_at: '2030-01-01T00:01:00.000+00:00',
      ttl_seconds: 60,
    });

    // 2: GET draft.
    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      page: { id: index, file: 'index.html' },
      base_revision: 1,
      can_undo: false,
      can_redo: false,
    });
    expect(draft.body.html).toContain('<h1 id="top">Welcome</h1>');
    expect(draft.body.outline[0]).toEqual({
      node: 1,
      tag: 'h1',
      id: 'top',
      classes: [],
      text: 'Welcome',
    });
    // Opening again returns the same open draft and token.
    const again = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(again.body.draft_token).toBe(draft.body.draft_token);

    // 3: operations, each with a new token.
    const op1 = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: draft.body.draft_token,
        operation: { kind: 'insert', parent: '#list', html: '<li id="two">Two</li>' },
      },
    });
    expect(op1.status).toBe(200);
    expect(op1.body).toEqual({
      draft_token: expect.stringMatching(/^dt_/) as unknown,
      result: { nodes: ['@5'], ids: ['two'] },
      can_undo: true,
      can_redo: false,
    });
    expect(op1.body.draft_token).not.toBe(draft.body.draft_token);
    const op2 = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: op1.body.draft_token,
        operation: { kind: 'swap', target: '#intro', html: 'Hello <b>world</b>' },
        outline: true,
      },
    });
    expect(op2.status).toBe(200);
    expect(op2.body.result.nodes).toEqual(['@2']);
    expect(op2.body.outline?.find((e) => e.id === 'intro')?.text).toBe('Hello world');

    // 3a: draft undo (no body), then redo; both answer like an operation.
    const undo = await ada<OperationBody>('POST', `/pages/${index}/draft/undo`);
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ can_undo: true, can_redo: true });
    const redo = await ada<OperationBody>('POST', `/pages/${index}/draft/redo`);
    expect(redo.status).toBe(200);
    expect(redo.body).toMatchObject({ can_undo: true, can_redo: false });
    const noRedo = await ada('POST', `/pages/${index}/draft/redo`);
    expect([noRedo.status, noRedo.body.code]).toEqual([409, 'nothing_to_redo']);
    // The token before the undo is stale now.
    const stale = await ada('POST', `/pages/${index}/operations`, {
      json: { draft_token: op2.body.draft_token, operation: { kind: 'remove', target: '#two' } },
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale_draft_token']);

    // 4a: the checks fail (a missing image): 422, nothing saved, the draft stays open.
    const broken = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: redo.body.draft_token,
        operation: {
          kind: 'insert',
          parent: '@0',
          html: '<img id="pic" src="missing.png" alt="">',
        },
      },
    });
    expect(broken.status).toBe(200);
    const failed = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: broken.body.draft_token, commit_id: randomUUID() },
    });
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe('folder_check_failed');
    expect(failed.body.checks?.links).toBe('failed');
    expect(
      failed.body.violations?.some((v) => v.check === 'links' && v.path === 'index.html'),
    ).toBe(true);
    expect((await ada<ProjectBody>('GET', `/projects/${id}`)).body.revision).toBe(1);
    const stillOpen = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(stillOpen.body.draft_token).toBe(broken.body.draft_token);
    expect(stillOpen.body.html).toContain('missing.png');
    const fix = await ada<OperationBody>('POST', `/pages/${index}/draft/undo`);
    expect(fix.status).toBe(200);

    // 4: save.
    const commitId = randomUUID();
    const saved = await ada<SavedBody>('PUT', `/pages/${index}/operations`, {
      json: { draft_token: fix.body.draft_token, commit_id: commitId },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      page: { id: index, file: 'index.html' },
      revision: 2,
      saved_at: '2030-01-01T00:00:00.000+00:00',
    });
    const history = await ada<HistoryBody>('GET', `/projects/${id}/history`);
    expect(history.body.entries.map((e) => [e.revision, e.kind])).toEqual([
      [2, 'save'],
      [1, 'create'],
    ]);
    expect(history.body.entries[0]).toMatchObject({
      page: { id: index, file: 'index.html' },
      commit_id: commitId,
      by: { name: 'Ada' },
    });
    const pages = await ada<PagesBody>('GET', `/projects/${id}/pages`);
    expect(pages.body.pages.find((p) => p.file === 'index.html')?.revision).toBe(2);
    expect(pages.body.pages.find((p) => p.file === 'about.html')?.revision).toBe(1);

    // The same commit id again: the same answer, nothing saved.
    const replay = await ada<SavedBody>('PUT', `/pages/${index}/operations`, {
      json: { draft_token: fix.body.draft_token, commit_id: commitId },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(saved.body);
    // A UUID is the same in capitals (RFC 9562).
    const shouted = await ada<SavedBody>('PUT', `/pages/${index}/operations`, {
      json: { draft_token: fix.body.draft_token, commit_id: commitId.toUpperCase() },
    });
    expect([shouted.status, shouted.body]).toEqual([200, saved.body]);
    // The same commit id on another page is not this save: answering it would say that page was
    // saved.
    const elsewhere = await ada('PUT', `/pages/${pageIds['about.html']!}/operations`, {
      json: { draft_token: fix.body.draft_token, commit_id: commitId },
    });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'commit_id_reused']);
    expect((await ada<ProjectBody>('GET', `/projects/${id}`)).body.revision).toBe(2);

    // After a save the draft goes on, on the new base, with an empty undo stack.
    const after = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(after.body).toMatchObject({ base_revision: 2, can_undo: false, can_redo: false });
    expect(after.body.draft_token).toBe(fix.body.draft_token);
    expect(after.body.html).toContain('<li id="two">Two</li>');
    expect(after.body.html).toContain('Hello <b>world</b>');
    expect(after.body.html).not.toContain('missing.png');

    // 4b: the page changed elsewhere (another client, after the lock changed hands): 409.
    const edit = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: { draft_token: after.body.draft_token, operation: { kind: 'remove', target: '#two' } },
    });
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    const other = caller(s, s.token, 'run-2');
    expect((await other('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const theirs = await other<DraftBody>('GET', `/pages/${index}/draft`);
    const theirOp = await other<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: theirs.body.draft_token,
        operation: { kind: 'replace', target: '#top', html: '<h1 id="top">Hi</h1>' },
      },
    });
    const theirSave = await other<SavedBody>('PUT', `/pages/${index}/operations`, {
      json: { draft_token: theirOp.body.draft_token, commit_id: randomUUID() },
    });
    expect(theirSave.body.revision).toBe(3);
    expect((await other('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const conflict = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: edit.body.draft_token, commit_id: randomUUID() },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'revision_conflict', current_revision: 3 });

    // 5: release the lock.
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect((await ada('GET', `/pages/${index}/draft`)).body.code).toBe('lock_required');
  });

  it('discards a draft, and opens a new one on the current revision', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const about = pageIds['about.html']!;
    const ada = caller(s, s.token, 'discarder');
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const first = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    await ada('POST', `/pages/${about}/operations`, {
      json: {
        draft_token: first.body.draft_token,
        operation: { kind: 'remove', target: '#about' },
      },
    });
    expect((await ada('DELETE', `/pages/${about}/draft`)).status).toBe(204);
    expect((await ada('DELETE', `/pages/${about}/draft`)).status).toBe(204);
    // Discarding is page editing: it needs the caller's own lock (decisions §3, Lock).
    const other = caller(s, s.token, 'no-lock');
    const refused = await other('DELETE', `/pages/${about}/draft`);
    expect([refused.status, refused.body.code]).toEqual([423, 'lock_held']);
    await ada('DELETE', `/projects/${id}/lock`);
    const unlocked = await other('DELETE', `/pages/${about}/draft`);
    expect([unlocked.status, unlocked.body.code]).toEqual([409, 'lock_required']);
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const fresh = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    expect(fresh.body.draft_token).not.toBe(first.body.draft_token);
    expect(fresh.body.html).toContain('id="about"');
    const gone = await ada('POST', `/pages/${about}/draft/undo`);
    expect([gone.status, gone.body.code]).toEqual([409, 'nothing_to_undo']);
  });

  it('swaps the content of <body> (@0), undoes and redoes it; removing <body> stays 422', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const about = pageIds['about.html']!;
    const ada = caller(s, s.token, 'body-swapper');
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const draft = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    const removed = await ada('POST', `/pages/${about}/operations`, {
      json: { draft_token: draft.body.draft_token, operation: { kind: 'remove', target: '@0' } },
    });
    expect([removed.status, removed.body.code]).toEqual([422, 'body_not_allowed']);

    const swapped = await ada<OperationBody>('POST', `/pages/${about}/operations`, {
      json: {
        draft_token: draft.body.draft_token,
        operation: { kind: 'swap', target: '@0', html: '<p id="only">only</p>' },
        outline: true,
      },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.result).toEqual({ nodes: ['@0'], ids: ['only'] });
    expect(swapped.body.outline).toEqual([
      { node: 1, tag: 'p', id: 'only', classes: [], text: 'only' },
    ]);
    const after = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    expect(after.body.html).toContain('<body><p id="only">only</p></body>');

    const undo = await ada<OperationBody>('POST', `/pages/${about}/draft/undo`);
    expect(undo.status).toBe(200);
    expect(undo.body.result).toEqual({ nodes: ['@0'], ids: ['about'] });
    const undone = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    expect(undone.body.html).toBe(draft.body.html);

    const redo = await ada<OperationBody>('POST', `/pages/${about}/draft/redo`);
    expect(redo.status).toBe(200);
    expect(redo.body.result).toEqual({ nodes: ['@0'], ids: ['only'] });
    expect((await ada<DraftBody>('GET', `/pages/${about}/draft`)).body.html).toBe(after.body.html);
  });
});

describe('draft tokens', () => {
  it('accept only the newest token, replay the exact last request, and survive a refusal', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const index = pageIds['index.html']!;
    const ada = caller(s, s.token, 'tokens');
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);

    // A refused operation (unresolvable reference) is a 422 with errors and changes nothing.
    const refused = await ada('POST', `/pages/${index}/operations`, {
      json: { draft_token: draft.body.draft_token, operation: { kind: 'remove', target: '#nope' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('unresolved_reference');
    expect(Object.keys(refused.body.errors ?? {})).toEqual(['operation.target']);

    const request = {
      draft_token: draft.body.draft_token,
      operation: { kind: 'duplicate', target: '#intro' },
      outline: true,
    };
    const first = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: request,
    });
    expect(first.status).toBe(200);
    expect(first.body.result.ids).toEqual(['intro-2']);
    // The very same request again: the same answer, applied once.
    const retry = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: request,
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const now = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(now.body.html.match(/id="intro-/g)).toHaveLength(1);
    expect(now.body.draft_token).toBe(first.body.draft_token);

    // The old token with another request: stale.
    const other = await ada('POST', `/pages/${index}/operations`, {
      json: { ...request, operation: { kind: 'remove', target: '#top' } },
    });
    expect([other.status, other.body.code]).toEqual([409, 'stale_draft_token']);
    // A save with an old token: stale too.
    const oldSave = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: draft.body.draft_token, commit_id: randomUUID() },
    });
    expect([oldSave.status, oldSave.body.code]).toEqual([409, 'stale_draft_token']);

    // Drafts are per (page, account, client): another client has none.
    const twin = caller(s, s.token, 'tokens-twin');
    const theirs = await twin('POST', `/pages/${index}/operations`, { json: request });
    expect(theirs.status).toBe(423);

    // A save keeps the newest token, and the request that made it may still be retried.
    const saved = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: first.body.draft_token, commit_id: randomUUID() },
    });
    expect(saved.status).toBe(200);
    const retried = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: request,
    });
    expect([retried.status, retried.body]).toEqual([200, first.body]);
    const kept = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect([kept.body.draft_token, kept.body.base_revision]).toEqual([first.body.draft_token, 2]);
  });

  it('save a page whose edits came to nothing byte for byte as it was written', async () => {
    const written =
      '\ufeff<!DOCTYPE html>\r\n<html><head><meta charset="utf-8"><title>x</title><link rel=stylesheet href=style.css></head>\r\n<p id="a" class=\'lead\'>hi<br/>there</p>\r\n<p id="b">b</p>\r\n';
    const bytes = new TextEncoder().encode(written);
    const folder = projectFolder('Kept');
    folder.set('index.html', bytes);
    const created = await call<{ id: string }>(s, 'POST', '/projects/folder', {
      token: s.token,
      client: 'kept',
      form: zipForm(zipOf(folder)),
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const pages = await call<{ pages: Array<{ id: string; file: string }> }>(
      s,
      'GET',
      `/projects/${id}/pages`,
      { token: s.token },
    );
    const index = pages.body.pages.find((p) => p.file === 'index.html')!.id;
    const ada = caller(s, s.token, 'kept');
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    const removed = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: { draft_token: draft.body.draft_token, operation: { kind: 'remove', target: '#b' } },
    });
    const undone = await ada<OperationBody>('POST', `/pages/${index}/draft/undo`);
    expect([removed.status, undone.status]).toEqual([200, 200]);
    const saved = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: undone.body.draft_token, commit_id: randomUUID() },
    });
    expect(saved.status).toBe(200);
    const download = async () =>
      readZip((await ada('GET', `/projects/${id}/folder`)).bytes).folder.get('index.html')!;
    expect(Buffer.from(await download()).equals(Buffer.from(bytes))).toBe(true);

    // A real edit writes the page as the draft holds it.
    const edited = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: { draft_token: undone.body.draft_token, operation: { kind: 'remove', target: '#b' } },
    });
    await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: edited.body.draft_token, commit_id: randomUUID() },
    });
    const after = new TextDecoder().decode(await download());
    expect(after).not.toContain('id="b"');
    expect(after).toContain('id="a"');
  });

  it('get a new token at a save whose page reads back as another tree', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const index = pageIds['index.html']!;
    const ada = caller(s, s.token, 'reread');
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    // A <div> inside a <p>: the draft holds it, but HTML read back closes the <p> before it.
    const inserted = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: draft.body.draft_token,
        operation: { kind: 'insert', parent: '#intro', html: '<div id="block">block</div>' },
      },
    });
    expect(inserted.status).toBe(200);
    const before = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    const saved = await ada('PUT', `/pages/${index}/operations`, {
      json: { draft_token: inserted.body.draft_token, commit_id: randomUUID() },
    });
    expect(saved.status).toBe(200);
    const after = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(after.body.draft_token).not.toBe(inserted.body.draft_token);
    expect(after.body.outline).not.toEqual(before.body.outline);
    // `@n` read with the old token would name other elements now: that token is stale.
    const stale = await ada('POST', `/pages/${index}/operations`, {
      json: { draft_token: inserted.body.draft_token, operation: { kind: 'remove', target: '@2' } },
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale_draft_token']);
    const next = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: after.body.draft_token,
        operation: { kind: 'remove', target: '#block' },
      },
    });
    expect(next.status).toBe(200);
  });
});

describe('the lock', () => {
  it('is renewed by its holder, answers 423 with `lock` to others, and expires after 60 s', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const bob = await s.addAccount('bob-lock@example.org', 'Bob');
    const ada = caller(s, s.token, 'holder');
    expect(
      (
        await ada('PUT', `/projects/${id}/members`, {
          json: { email: bob.account.email, role: 'editor' },
        })
      ).status,
    ).toBe(200);
    const bobs = caller(s, bob.token, 'bob-client');
    const taken = await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    s.clock.advanceSeconds(40);
    const renewed = await ada<LockBody>('PUT', `/projects/${id}/lock`, {
      json: { kind: 'screen', label: 'Ada on screen' },
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.lock.acquired_at).toBe(taken.body.lock.acquired_at);
    expect(renewed.body.lock.kind).toBe('screen');

    const refused = await bobs('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(refused.status).toBe(423);
    expect(refused.body.code).toBe('lock_held');
    expect(refused.body.lock).toEqual({
      kind: 'screen',
      label: 'Ada on screen',
      holder: { name: 'Ada' },
      expires_at: renewed.body.lock.expires_at,
    });
    // Every write by another client answers 423 while the lock is held.
    for (const [method, path, json] of [
      ['PATCH', `/projects/${id}`, { title: 'X' }],
      ['DELETE', `/projects/${id}/lock`, undefined],
      ['GET', `/pages/${pageIds['index.html']}/draft`, undefined],
      ['PUT', `/projects/${id}/history`, { direction: 'undo', revision: 1 }],
    ] as const) {
      const answer = await bobs(method, path, json ? { json } : {});
      expect([method, path, answer.status]).toEqual([method, path, 423]);
    }

    s.clock.advanceSeconds(59);
    expect((await bobs('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(423);
    s.clock.advanceSeconds(1);
    const bobsLock = await bobs<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(bobsLock.status).toBe(200);
    expect(bobsLock.body.lock.holder).toEqual({ name: 'Bob' });
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(423);
    expect((await bobs('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    const kind = await ada('PUT', `/projects/${id}/lock`, { json: { kind: 'robot', label: '' } });
    expect([kind.status, kind.body.code]).toEqual([422, 'validation_failed']);
  });

  it('goes to exactly one of several clients racing for it', async () => {
    const { id } = await createProject(s, s.token);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        caller(s, s.token, `racer-${i}`)<LockBody>('PUT', `/projects/${id}/lock`, {
          json: lockBody,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(423)]);
  });
});
