// Two server processes on one database (PostgreSQL scale-out, or two connections to one SQLite
// file): the same request sent to both at once answers the same in both, and takes effect once.
// The races are laid out step by step: one process is held at a chosen point of its request
// (a store call made to wait) while the other runs, so no test depends on timing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { describeStores, lockWaitBegun } from '../../../../packages/store/test/stores.js';
import { startProcess, startTestServer } from '../platform/harness.js';
import type { SecondProcess } from '../platform/harness.js';
import type {
  DraftBody,
  HistoryBody,
  OperationBody,
  PagesBody,
  ProjectBody,
  SavedBody,
  TestServer,
} from './helpers.js';
import { caller, createProject } from './helpers.js';
import { deferred, holdNext } from '../platform/hold.js';

const lockBody = { kind: 'agent', label: 'Twin requests' };

describeStores('one request sent to two server processes', (t) => {
  let a: TestServer;
  let b: SecondProcess;
  let storeB: Store;
  beforeAll(async () => {
    a = await startTestServer(
      { rateLimitPerMinute: 1_000_000 },
      { store: t.store, clock: t.clock },
    );
    storeB = await openStore(t.options); // a connection of its own, as another process has
    b = await startProcess(storeB, t.clock);
  });
  afterAll(async () => {
    await b.close();
    await storeB.close();
    await a.close();
  });

  /** A new project with `client`'s lock and draft of index.html, callers for both processes. */
  async function editing(client: string) {
    const { id, pageIds } = await createProject(a, a.token);
    const index = pageIds['index.html']!;
    const onA = caller(a, a.token, client);
    const onB = caller({ ...a, url: b.url }, a.token, client);
    expect((await onA('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const draft = await onA<DraftBody>('GET', `/pages/${index}/draft`);
    const holder = { accountNumber: a.account.accountNumber, client };
    /** The number of events in the draft's log (its newest event's number). */
    const events = async () => (await t.store.drafts.find(index, holder))!.sequence;
    return { id, index, onA, onB, draft: draft.body, events };
  }

  const insert = (draftToken: string, id = 'two') => ({
    draft_token: draftToken,
    operation: { kind: 'insert', parent: '#list', html: `<li id="${id}">Two</li>` },
    outline: true,
  });

  /** Editing with one operation made, ready to save. */
  async function readyToSave(client: string) {
    const run = await editing(client);
    const op = await run.onA<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: insert(run.draft.draft_token),
    });
    expect(op.status).toBe(200);
    const save = { draft_token: op.body.draft_token, commit_id: randomUUID() };
    return { ...run, save };
  }

  /** Both saves answered alike and saved once; the draft goes on in both processes. */
  async function savedOnce(run: Awaited<ReturnType<typeof readyToSave>>, answers: unknown[]) {
    const [first, second] = answers as Array<{ status: number; body: SavedBody }>;
    expect(first).toMatchObject({ status: 200, body: { revision: 2 } });
    expect(second).toMatchObject({ status: 200, body: first!.body });
    const history = await run.onA<HistoryBody>('GET', `/projects/${run.id}/history`);
    expect(history.body.entries.map((e) => [e.revision, e.kind])).toEqual([
      [2, 'save'],
      [1, 'create'],
    ]);
    for (const on of [run.onB, run.onA]) {
      const draft = await on<DraftBody>('GET', `/pages/${run.index}/draft`);
      expect(draft.body).toMatchObject({
        draft_token: run.save.draft_token,
        base_revision: 2,
        can_undo: false,
        can_redo: false,
      });
      expect(draft.body.html).toContain('<li id="two">Two</li>');
    }
  }

  const put = (on: ReturnType<typeof caller>, run: Awaited<ReturnType<typeof readyToSave>>) =>
    on<SavedBody>('PUT', `/pages/${run.index}/operations`, { json: run.save });

  it('saves once when the twin saves between the replay check and the revision read', async () => {
    const run = await readyToSave('save-before-read');
    // B has passed the commit-id and token checks and is about to read the current revision.
    const held = holdNext(storeB.projects, 'find');
    const onB = put(run.onB, run);
    await held.reached;
    const onA = await put(run.onA, run);
    held.release();
    await savedOnce(run, [onA, await onB]);
  });

  it('saves once when the twin saves between proposing and recording', async () => {
    const run = await readyToSave('save-before-record');
    // B has proposed its change on revision 1 and is about to open the transaction.
    const held = holdNext(storeB, 'transaction');
    const onB = put(run.onB, run);
    await held.reached;
    const onA = await put(run.onA, run);
    held.release();
    await savedOnce(run, [onA, await onB]);
  });

  it('answers 409 commit_id_reused to a save of another page whose commit id the twin took', async () => {
    const run = await readyToSave('one-id-two-pages');
    const pages = await run.onA<PagesBody>('GET', `/projects/${run.id}/pages`);
    const about = pages.body.pages.find((p) => p.file === 'about.html')!.id;
    const aboutDraft = await run.onB<DraftBody>('GET', `/pages/${about}/draft`);
    const edited = await run.onB<OperationBody>('POST', `/pages/${about}/operations`, {
      json: {
        draft_token: aboutDraft.body.draft_token,
        operation: { kind: 'insert', parent: '#about', html: '<em id="more">more</em>' },
      },
    });
    expect(edited.status).toBe(200);
    // B has checked the commit id (unused) and proposed its save; A saves index.html with it.
    const held = holdNext(storeB, 'transaction');
    const onB = run.onB('PUT', `/pages/${about}/operations`, {
      json: { draft_token: edited.body.draft_token, commit_id: run.save.commit_id },
    });
    await held.reached;
    const onA = await put(run.onA, run);
    held.release();
    const refused = await onB;
    expect(onA).toMatchObject({ status: 200, body: { page: { id: run.index }, revision: 2 } });
    expect([refused.status, refused.body.code]).toEqual([409, 'commit_id_reused']);
    const history = await run.onA<HistoryBody>('GET', `/projects/${run.id}/history`);
    expect(history.body.entries.map((e) => [e.revision, e.kind])).toEqual([
      [2, 'save'],
      [1, 'create'],
    ]);
    // The about page's draft is as it was: its operation still to be saved.
    const still = await run.onB<DraftBody>('GET', `/pages/${about}/draft`);
    expect(still.body).toMatchObject({ draft_token: edited.body.draft_token, can_undo: true });
  });

  // Only PostgreSQL has row locks that another connection waits on (SQLite orders whole
  // transactions), so the case exists there alone.
  if (t.kind === 'postgres')
    it('saves once when the twin waits for the project row that the first one holds', async () => {
      const run = await readyToSave('save-while-locked');
      // A holds its transaction open once the revision and the commit id are written in it.
      const written = deferred();
      const commit = deferred();
      const transaction = t.store.transaction.bind(t.store);
      t.store.transaction = (fn) => {
        t.store.transaction = transaction;
        return transaction(async (tx) => {
          const result = await fn(tx);
          written.resolve();
          await commit.promise;
          return result;
        });
      };
      const onA = put(run.onA, run);
      await written.promise;
      // B runs up to its own transaction, whose lock on the project row waits for A's.
      const onB = put(run.onB, run);
      await lockWaitBegun(t.store);
      commit.resolve();
      await savedOnce(run, [await onA, await onB]);
    });

  it('answers 503 project_busy to a rename that the other process keeps overtaking', async () => {
    const { id } = await createProject(a, a.token);
    const onA = caller(a, a.token, 'overtaken');
    const onB = caller({ ...a, url: b.url }, a.token, 'overtaking');
    let settled = false;
    const renamed = onA('PATCH', `/projects/${id}`, { json: { title: 'Mine' } });
    void renamed.finally(() => (settled = true));
    // Each time A has proposed its change and is about to record it, B records one first.
    let overtaken = 0;
    for (;;) {
      const held = holdNext(t.store, 'transaction');
      await Promise.race([held.reached, renamed]);
      if (settled) {
        held.release();
        break;
      }
      const other = await onB<ProjectBody>('PATCH', `/projects/${id}`, {
        json: { title: `Theirs ${++overtaken}` },
      });
      expect(other.status).toBe(200);
      held.release();
    }
    const answer = await renamed;
    expect([answer.status, answer.body.code]).toEqual([503, 'project_busy']);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(overtaken).toBeGreaterThan(1);
    const now = await onA<ProjectBody>('GET', `/projects/${id}`);
    expect([now.body.title, now.body.revision]).toEqual([`Theirs ${overtaken}`, overtaken + 1]);
  });

  it('answers 404 to an operation whose project the twin deleted while it ran', async () => {
    const run = await editing('deleted-meanwhile');
    // B has applied the operation in memory and is about to store its event.
    const held = holdNext(storeB.drafts, 'append');
    const onB = run.onB('POST', `/pages/${run.index}/operations`, {
      json: insert(run.draft.draft_token),
    });
    await held.reached;
    expect((await run.onA('DELETE', `/projects/${run.id}`)).status).toBe(204);
    held.release();
    const answer = await onB;
    expect([answer.status, answer.body.code]).toEqual([404, 'not_found']);
    expect((await run.onB('GET', `/projects/${run.id}`)).status).toBe(404);
  });

  it('answers a rename with the project as its own change left it, not as a later one did', async () => {
    const { id } = await createProject(a, a.token);
    const onA = caller(a, a.token, 'first-renamer');
    const onB = caller({ ...a, url: b.url }, a.token, 'second-renamer');
    // A's rename has committed and is about to answer; B renames the project meanwhile.
    const transaction = t.store.transaction.bind(t.store);
    const committed = deferred();
    const resume = deferred();
    t.store.transaction = async (fn) => {
      t.store.transaction = transaction;
      const result = await transaction(fn);
      committed.resolve();
      await resume.promise;
      return result;
    };
    const first = onA<ProjectBody>('PATCH', `/projects/${id}`, { json: { title: 'First' } });
    await committed.promise;
    const second = await onB<ProjectBody>('PATCH', `/projects/${id}`, {
      json: { title: 'Second' },
    });
    resume.resolve();
    expect((await first).body).toMatchObject({ title: 'First', revision: 2 });
    expect(second.body).toMatchObject({ title: 'Second', revision: 3 });
  });

  it('applies one operation once, and answers it alike in both processes', async () => {
    const run = await editing('operation');
    const body = insert(run.draft.draft_token);
    // B has applied the operation to its draft in memory and is about to append the event.
    const held = holdNext(storeB.drafts, 'append');
    const onB = run.onB<OperationBody>('POST', `/pages/${run.index}/operations`, { json: body });
    await held.reached;
    const onA = await run.onA<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: body,
    });
    held.release();
    const second = await onB;
    expect(onA).toMatchObject({ status: 200, body: { result: { ids: ['two'] } } });
    expect(onA.body.outline).toBeDefined();
    expect(second).toMatchObject({ status: 200, body: onA.body });
    expect(await run.events()).toBe(1);

    // B dropped the draft it had applied the operation to, and goes on from A's.
    const next = await run.onB<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: insert(onA.body.draft_token, 'three'),
    });
    expect(next.status).toBe(200);
    const onADraft = await run.onA<DraftBody>('GET', `/pages/${run.index}/draft`);
    const onBDraft = await run.onB<DraftBody>('GET', `/pages/${run.index}/draft`);
    expect(onBDraft.body).toEqual(onADraft.body);
    expect(onADraft.body.html.match(/id="two"/g)).toHaveLength(1);
    expect(onADraft.body.html).toContain('<li id="three">Two</li>');
    expect(await run.events()).toBe(2);
  });

  it('rebuilds the draft as of the token it read, not with the twin’s event', async () => {
    const run = await editing('operation-rebuilt');
    const body = {
      draft_token: run.draft.draft_token,
      operation: { kind: 'remove', target: '#intro' },
    };
    // B has read the draft (not in its memory) and is about to read its log to rebuild it.
    const held = holdNext(storeB.draftSnapshots, 'restore');
    const onB = run.onB<OperationBody>('POST', `/pages/${run.index}/operations`, { json: body });
    await held.reached;
    const onA = await run.onA<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: body,
    });
    held.release();
    expect(onA.status).toBe(200);
    expect(await onB).toMatchObject({ status: 200, body: onA.body });
    expect(await run.events()).toBe(1);
  });

  it('answers 409 stale to the loser of two different operations on one token', async () => {
    const run = await editing('two-operations');
    const held = holdNext(storeB.drafts, 'append');
    const onB = run.onB('POST', `/pages/${run.index}/operations`, {
      json: insert(run.draft.draft_token, 'b'),
    });
    await held.reached;
    const onA = await run.onA<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: insert(run.draft.draft_token, 'a'),
    });
    held.release();
    expect(onA.status).toBe(200);
    const lost = await onB;
    expect([lost.status, lost.body.code]).toEqual([409, 'stale_draft_token']);
    const draft = await run.onB<DraftBody>('GET', `/pages/${run.index}/draft`);
    expect(draft.body.draft_token).toBe(onA.body.draft_token);
    expect(draft.body.html).toContain('<li id="a">');
    expect(draft.body.html).not.toContain('<li id="b">');
    expect(await run.events()).toBe(1);
  });

  it('runs two undos sent at once as two undos, as one process does', async () => {
    const run = await editing('undo');
    let token = run.draft.draft_token;
    for (const id of ['x', 'y']) {
      const op = await run.onA<OperationBody>('POST', `/pages/${run.index}/operations`, {
        json: insert(token, id),
      });
      token = op.body.draft_token;
    }
    const undo = (on: ReturnType<typeof caller>) =>
      on<OperationBody>('POST', `/pages/${run.index}/draft/undo`);
    // B has undone the newest operation in memory and is about to append the event.
    const held = holdNext(storeB.drafts, 'append');
    const onB = undo(run.onB);
    await held.reached;
    const onA = await undo(run.onA);
    held.release();
    const second = await onB;
    // B lost the event to A, so it ran again on the draft A left: the next step is undone.
    expect(onA).toMatchObject({ status: 200, body: { can_undo: true, can_redo: true } });
    expect(second).toMatchObject({ status: 200, body: { can_undo: false, can_redo: true } });
    expect(await run.events()).toBe(4);
    const onADraft = await run.onA<DraftBody>('GET', `/pages/${run.index}/draft`);
    const onBDraft = await run.onB<DraftBody>('GET', `/pages/${run.index}/draft`);
    expect(onBDraft.body).toEqual(onADraft.body);
    expect(onADraft.body).toMatchObject({
      draft_token: second.body.draft_token,
      html: run.draft.html,
    });
    const none = await run.onB('POST', `/pages/${run.index}/draft/undo`);
    expect([none.status, none.body.code]).toEqual([409, 'nothing_to_undo']);
  });

  it('does not undo, in one process, an operation that a save in the other folded in', async () => {
    const run = await editing('saved-elsewhere');
    const op = await run.onB<OperationBody>('POST', `/pages/${run.index}/operations`, {
      json: insert(run.draft.draft_token),
    });
    // B holds the draft in memory at this token; A saves it, and the token stays.
    const saved = await run.onA<SavedBody>('PUT', `/pages/${run.index}/operations`, {
      json: { draft_token: op.body.draft_token, commit_id: randomUUID() },
    });
    expect(saved.status).toBe(200);
    const undo = await run.onB('POST', `/pages/${run.index}/draft/undo`);
    expect([undo.status, undo.body.code]).toEqual([409, 'nothing_to_undo']);
    const draft = await run.onB<DraftBody>('GET', `/pages/${run.index}/draft`);
    expect(draft.body).toMatchObject({
      draft_token: op.body.draft_token,
      base_revision: 2,
      can_undo: false,
    });
  });
});
