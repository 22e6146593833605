// Many saves of one draft token at once, each with its own commit id (a client that resends a
// save under a new id, or several tabs): the first saves the page, every other finds the page
// saved as it is and records no revision, answering 200 with the current revision. The same on
// one server process and across two on one database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { startProcess, startTestServer } from '../platform/harness.js';
import type { SecondProcess } from '../platform/harness.js';
import type { DraftBody, HistoryBody, OperationBody, SavedBody, TestServer } from './helpers.js';
import { caller, createProject } from './helpers.js';

const SAVES = 20;

describeStores('saves of one draft token with different commit ids', (t) => {
  let a: TestServer;
  let b: SecondProcess;
  let storeB: Store;
  beforeAll(async () => {
    a = await startTestServer(
      { rateLimitPerMinute: 1_000_000 },
      { store: t.store, clock: t.clock },
    );
    storeB = await openStore(t.options);
    b = await startProcess(storeB, t.clock);
  });
  afterAll(async () => {
    await b.close();
    await storeB.close();
    await a.close();
  });

  /** A project whose index.html draft has one operation, ready to save, on `client`'s lock. */
  async function edited(client: string) {
    const { id, pageIds } = await createProject(a, a.token);
    const index = pageIds['index.html']!;
    const onA = caller(a, a.token, client);
    const onB = caller({ ...a, url: b.url }, a.token, client);
    const lock = await onA('PUT', `/projects/${id}/lock`, {
      json: { kind: 'agent', label: 'Many saves' },
    });
    expect(lock.status).toBe(200);
    const draft = await onA<DraftBody>('GET', `/pages/${index}/draft`);
    const op = await onA<OperationBody>('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: draft.body.draft_token,
        operation: { kind: 'insert', parent: '#list', html: '<li id="two">Two</li>' },
      },
    });
    expect(op.status).toBe(200);
    return { id, index, onA, onB, token: op.body.draft_token };
  }

  async function saveManyTimes(run: Awaited<ReturnType<typeof edited>>, both: boolean) {
    const answers = await Promise.all(
      Array.from({ length: SAVES }, (_, n) =>
        (both && n % 2 ? run.onB : run.onA)<SavedBody>('PUT', `/pages/${run.index}/operations`, {
          json: { draft_token: run.token, commit_id: randomUUID() },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const first = answers[0]!.body;
    expect(first).toMatchObject({ page: { id: run.index }, revision: 2 });
    for (const answer of answers) expect(answer.body).toEqual(first);
    const history = await run.onA<HistoryBody>('GET', `/projects/${run.id}/history`);
    expect(history.body.revision).toBe(2);
    expect(history.body.entries.map((e) => [e.revision, e.kind])).toEqual([
      [2, 'save'],
      [1, 'create'],
    ]);
    expect(history.body.entries[0]!.at).toBe(first.saved_at);
    // The draft goes on from the saved page with an empty undo stack, in both processes.
    for (const on of [run.onA, run.onB]) {
      const draft = await on<DraftBody>('GET', `/pages/${run.index}/draft`);
      expect(draft.body).toMatchObject({ base_revision: 2, can_undo: false, can_redo: false });
      expect(draft.body.html).toContain('<li id="two">Two</li>');
    }
  }

  it(`makes one revision of ${SAVES} saves sent at once to one process`, async () => {
    await saveManyTimes(await edited('one-process'), false);
  });

  it(`makes one revision of ${SAVES} saves sent at once to two processes`, async () => {
    await saveManyTimes(await edited('two-processes'), true);
  });

  it('answers a save of an unchanged draft with the current revision, saving nothing', async () => {
    const { id, pageIds } = await createProject(a, a.token);
    const index = pageIds['index.html']!;
    const on = caller(a, a.token, 'unchanged');
    await on('PUT', `/projects/${id}/lock`, { json: { kind: 'agent', label: 'No change' } });
    const draft = await on<DraftBody>('GET', `/pages/${index}/draft`);
    const commitId = randomUUID();
    const save = () =>
      on<SavedBody>('PUT', `/pages/${index}/operations`, {
        json: { draft_token: draft.body.draft_token, commit_id: commitId },
      });
    const saved = await save();
    expect(saved).toMatchObject({ status: 200, body: { page: { id: index }, revision: 1 } });
    expect(await save()).toMatchObject({ status: 200, body: saved.body }); // the same id again
    const history = await on<HistoryBody>('GET', `/projects/${id}/history`);
    expect(history.body.entries.map((e) => e.kind)).toEqual(['create']);
    expect(history.body.entries[0]!.at).toBe(saved.body.saved_at);
  });
});
