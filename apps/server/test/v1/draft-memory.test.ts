// The parsed drafts live in a memory-bounded LRU; a draft that is not in memory (evicted, or a
// new process) is rebuilt from the store and answers exactly as the live one would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { EventHub } from '../../src/events/hub.js';
import { createLogger } from '../../src/http/logging.js';
import { WorkPool } from '../../src/pool/work-pool.js';
import { DraftService } from '../../src/editing/service/draft-service.js';
import type { DraftView } from '../../src/editing/service/draft-service.js';
import { EditingSignals } from '../../src/editing/service/editing-signals.js';
import { FolderFiles } from '../../src/editing/service/folder-files.js';
import { hashFolder } from '../../src/editing/service/folder-state.js';
import { WeightedLru } from '../../src/weighted-lru.js';
import { ProjectChanges } from '../../src/editing/service/project-changes.js';
import { RevisionStates } from '../../src/editing/service/revision-states.js';
import { projectFolder } from './helpers.js';

describe('WeightedLru', () => {
  it('keeps the total weight under its bound, evicting the least recently used first', () => {
    const lru = new WeightedLru<string, number>(10);
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    expect(lru.get('a')).toBe(1); // now b is the least recently used
    lru.set('c', 3, 4);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual([1, 3]);
    expect(lru.weight).toBe(8);
    lru.set('huge', 4, 11);
    expect(lru.get('huge')).toBeUndefined();
    lru.set('a', 5, 2);
    expect([lru.size, lru.weight, lru.get('a')]).toEqual([2, 6, 5]);
    lru.delete('a');
    expect([lru.size, lru.weight]).toEqual([1, 4]);
  });

  it('counts replacing an entry as a use, and reading one often keeps it', () => {
    const lru = new WeightedLru<string, number>(8);
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    lru.set('a', 3, 4); // replaced: now the most recently used
    lru.set('c', 4, 4);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([3, undefined, 4]);
    for (let i = 0; i < 1000; i++) lru.get('c');
    lru.set('d', 5, 4); // a and c were both read since: a, the older, goes
    expect([lru.get('a'), lru.get('c'), lru.get('d'), lru.weight]).toEqual([undefined, 4, 5, 8]);
  });
});

/** A GET draft answer as the client reads it. */
function answerOf(view: DraftView) {
  return JSON.parse(view.json.toString('utf8')) as {
    draft_token: string;
    html: string;
    outline: unknown[];
    can_undo: boolean;
  };
}

/** Everything on the event loop: these tests are about memory, not threads. */
const pool = new WorkPool({ threads: 0, inlineBytes: 0 });

describe('drafts without room in memory', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'galley-drafts-'));
    store = await openStore({ kind: 'sqlite', dataDir: dir, clock: new TestClock() });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 10 });
  });

  /** A new account's new project (the test folder), with the services a DraftService needs. */
  async function ownedProject(email: string) {
    const created = await store.accounts.create({ email, name: email, password: 'p' });
    if (!created.ok) throw new Error('setup');
    const { account } = created;
    const files = new FolderFiles({ store, cacheBytes: 1 << 20, pool });
    const states = new RevisionStates(store, 1 << 20);
    const hub = new EventHub({ store, logger: createLogger('silent'), databaseUrl: null });
    const signals = new EditingSignals(hub);
    const changes = new ProjectChanges({ store, states, files, signals });
    const project = await changes.create(account, hashFolder(projectFolder()));
    const pageId = (await store.projectRevisions.pageIds(project.id)).get('index.html')!;
    const access = { project, role: 'owner' as const, page: { id: pageId, file: 'index.html' } };
    return { account, files, states, signals, pageId, access };
  }

  it('rebuilds every draft from the store and answers like the one kept in memory', async () => {
    const { account, files, states, signals, pageId, access } = await ownedProject('a@example.org');

    // Two services on one store: one remembers drafts, the other has no room for any.
    const roomy = new DraftService({ store, states, files, signals, pool, cacheBytes: 1 << 26 });
    const cramped = new DraftService({ store, states, files, signals, pool, cacheBytes: 1 });
    const steps = [
      { kind: 'insert', parent: '#list', html: '<li id="two">Two</li>' },
      { kind: 'move', target: '#two', parent: '@0', before: '#top' },
      { kind: 'duplicate', target: '#intro' },
      { kind: 'swap', target: '#intro-2', html: 'copy' },
    ] as const;
    const run = async (service: DraftService, client: string) => {
      const holder = { accountNumber: account.accountNumber, client };
      const read = () => store.drafts.find(pageId, holder);
      const opened = await service.open(access, holder, null);
      let token = opened.token;
      const answers: unknown[] = [];
      for (const operation of steps) {
        const answer = await service.operate(access, holder, await read(), {
          draft_token: token,
          operation,
          outline: true,
        });
        token = answer.draft_token;
        answers.push({ ...answer, draft_token: null });
      }
      for (const direction of ['undo', 'undo', 'redo'] as const) {
        answers.push({
          ...(await service.move(access, holder, await read(), direction)),
          draft_token: null,
        });
      }
      const last = answerOf(await service.open(access, holder, await read()));
      return { answers, html: last.html, outline: last.outline };
    };
    const kept = await run(roomy, 'roomy');
    const rebuilt = await run(cramped, 'cramped');
    expect(rebuilt).toEqual(kept);
    expect(kept.html).toContain('<li id="two">Two</li><h1 id="top">');

    // A logged operation this engine no longer replays: 409 draft_unusable, never a 500; the
    // draft can still be discarded, and a new one opens on the saved version.
    const holder = { accountNumber: account.accountNumber, client: 'unusable' };
    await cramped.open(access, holder, null);
    const row = (await store.drafts.find(pageId, holder))!;
    await store.drafts.append(row, {
      kind: 'operation',
      token: 'dt_logged_elsewhere',
      operation: { kind: 'remove', target: '#no-such-element' },
    });
    const stuck = await store.drafts.find(pageId, holder);
    await expect(cramped.open(access, holder, stuck)).rejects.toMatchObject({
      status: 409,
      code: 'draft_unusable',
    });
    await cramped.discard(access, holder, stuck);
    const fresh = answerOf(
      await cramped.open(access, holder, await store.drafts.find(pageId, holder)),
    );
    expect(fresh.can_undo).toBe(false);
    expect(fresh.html).toContain('id="intro"');
  });

  it('weighs the history too: a draft that outgrows the bound leaves memory, and goes on', async () => {
    const { account, files, states, signals, pageId, access } = await ownedProject('b@example.org');
    const holder = { accountNumber: account.accountNumber, client: 'growing' };
    const read = () => store.drafts.find(pageId, holder);

    const probe = new DraftService({ store, states, files, signals, pool, cacheBytes: 1 << 26 });
    let token = (await probe.open(access, holder, null)).token;
    const opened = probe.heldBytes;
    const small = { kind: 'insert', parent: '#list', html: '<li>x</li>' } as const;
    token = (
      await probe.operate(access, holder, await read(), { draft_token: token, operation: small })
    ).draft_token;
    const perSmallOperation = probe.heldBytes - opened;
    expect(perSmallOperation).toBeGreaterThan(0);

    // Room for the opened draft and a few small operations, not for 40,000 characters of text.
    const service = new DraftService({
      store,
      states,
      files,
      signals,
      pool,
      cacheBytes: opened + 4 * perSmallOperation,
    });
    await service.open(access, holder, await read());
    expect(service.heldBytes).toBe(opened + perSmallOperation);
    const big = {
      kind: 'insert',
      parent: '#list',
      html: `<li id="big">${'y'.repeat(40_000)}</li>`,
    } as const;
    const grown = await service.operate(access, holder, await read(), {
      draft_token: token,
      operation: big,
    });
    expect([grown.result.ids, service.heldBytes]).toEqual([['big'], 0]);
    // Rebuilt from the store on the next request, which then finds it too heavy to keep again.
    const undone = await service.move(access, holder, await read(), 'undo');
    expect([undone.can_undo, undone.can_redo, service.heldBytes]).toEqual([true, true, 0]);
    const again = answerOf(await service.open(access, holder, await read()));
    expect(again.html).not.toContain('id="big"');
    expect(again.html).toContain('<li>x</li>');
  });
});
