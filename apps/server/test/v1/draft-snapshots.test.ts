// A long draft costs what a short one does: every SNAPSHOT_EVERY operations its page is stored
// and memory forgets them, so a rebuild replays only the operations since (draft-service.ts).
// Checked against a draft kept whole in memory and a replay of every event from the base, on
// SQLite and PostgreSQL, with undo far past the snapshots and redo back.
import { expect, it } from 'vitest';
import { Draft } from '@galley/core';
import type { DraftLog } from '@galley/core';
import type { DraftRecord, Store } from '@galley/store';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { EventHub } from '../../src/events/hub.js';
import { createLogger } from '../../src/http/logging.js';
import { WorkPool } from '../../src/pool/work-pool.js';
import { DraftService } from '../../src/editing/service/draft-service.js';
import type { DraftView } from '../../src/editing/service/draft-service.js';
import { EditingSignals } from '../../src/editing/service/editing-signals.js';
import { FolderFiles } from '../../src/editing/service/folder-files.js';
import { hashFolder } from '../../src/editing/service/folder-state.js';
import { ProjectChanges } from '../../src/editing/service/project-changes.js';
import { RevisionStates } from '../../src/editing/service/revision-states.js';
import { projectFolder } from './helpers.js';

const OPERATIONS = 300;
const pool = new WorkPool({ threads: 0, inlineBytes: 0 });

function answerOf(view: DraftView) {
  return JSON.parse(view.json.toString('utf8')) as { html: string; can_undo: boolean };
}

async function editedPage(store: Store) {
  const created = await store.accounts.create({ email: 'a@example.org', name: 'A', password: 'p' });
  if (!created.ok) throw new Error('setup');
  const { account } = created;
  const files = new FolderFiles({ store, cacheBytes: 1 << 20, pool });
  const states = new RevisionStates(store, 1 << 20);
  const signals = new EditingSignals(
    new EventHub({ store, logger: createLogger('silent'), databaseUrl: null }),
  );
  const project = await new ProjectChanges({ store, states, files, signals }).create(
    account,
    hashFolder(projectFolder()),
  );
  const pageId = (await store.projectRevisions.pageIds(project.id)).get('index.html')!;
  const access = { project, role: 'owner' as const, page: { id: pageId, file: 'index.html' } };
  const holder = { accountNumber: account.accountNumber, client: 'long' };
  const service = (cacheBytes: number) =>
    new DraftService({ store, states, files, signals, pool, cacheBytes });
  const read = () => store.drafts.find(pageId, holder);
  return { access, holder, service, read, files };
}

/** The n-th operation: two items come, one goes, so the page grows slowly while the log grows. */
function operation(n: number) {
  return n % 3 === 0
    ? { kind: 'remove' as const, target: `#i${n - 1}` }
    : { kind: 'insert' as const, parent: '#list', html: `<li id="i${n}">item ${n}</li>` };
}

/** The draft as replaying every event from its base makes it. */
async function replayed(store: Store, files: FolderFiles, row: DraftRecord): Promise<string> {
  const base = new TextDecoder().decode(await files.file(row.baseSha256));
  const log = await store.drafts.log(row);
  const whole = Draft.rebuild(base, { format: 1, ...log, sequence: row.sequence } as DraftLog);
  if (!whole.ok) throw new Error('replay refused');
  return whole.draft.html();
}

describeStores('long drafts', (t) => {
  it('rebuild from a snapshot as the whole replay does, and undo past the snapshots', async () => {
    const { store } = await t.fresh();
    const { access, holder, service, read, files } = await editedPage(store);
    const kept = service(1 << 28);
    let token = (await kept.open(access, holder, null)).token;
    const held: number[] = [];
    for (let n = 1; n <= OPERATIONS; n++) {
      const answer = await kept.operate(access, holder, await read(), {
        draft_token: token,
        operation: operation(n),
      });
      token = answer.draft_token;
      held.push(kept.heldBytes);
    }
    // The snapshots are taken in the background: wait for the newest.
    const row = (await read())!;
    for (let i = 0; i < 100; i++) {
      const { snapshot } = await store.draftSnapshots.restore(row);
      if (snapshot && snapshot.seq > OPERATIONS - 128) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const restored = await store.draftSnapshots.restore(row);
    expect(restored.snapshot?.seq).toBeGreaterThan(128);
    expect(restored.operations.length).toBeLessThan(128);
    // Memory forgot what the snapshots hold: it weighs about what it did at the first one.
    expect(held[OPERATIONS - 1]!).toBeLessThan(held[127]! * 1.5);

    // Rebuilt with no room to keep it: from the snapshot, as replaying every event does.
    const cramped = service(1);
    const fromSnapshot = answerOf(await cramped.open(access, holder, row));
    expect(fromSnapshot.html).toBe(await replayed(store, files, row));
    expect(answerOf(await kept.open(access, holder, row))).toEqual(fromSnapshot);

    // Undo every operation, alternating the service kept in memory and the one rebuilding each
    // time (from ever older snapshots, then the base); then redo most of them.
    for (let n = OPERATIONS; n >= 1; n--) {
      const by = n % 2 === 0 ? kept : cramped;
      const undone = await by.move(access, holder, await read(), 'undo');
      expect(undone.can_undo).toBe(n > 1);
      if (n % 50 === 0) {
        const now = (await read())!;
        const html = answerOf(await cramped.open(access, holder, now)).html;
        expect(html).toBe(await replayed(store, files, now));
      }
    }
    const start = answerOf(await cramped.open(access, holder, await read()));
    expect(start.html).toContain('<ul id="list"><li>One</li></ul>');
    await expect(kept.move(access, holder, await read(), 'undo')).rejects.toMatchObject({
      code: 'nothing_to_undo',
    });
    for (let n = 1; n <= 200; n++) {
      const by = n % 2 === 0 ? kept : cramped;
      expect((await by.move(access, holder, await read(), 'redo')).can_redo).toBe(true);
    }
    const now = (await read())!;
    expect(answerOf(await kept.open(access, holder, now)).html).toBe(
      await replayed(store, files, now),
    );
  }, 180_000);
});
