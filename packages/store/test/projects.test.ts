import { expect, it } from 'vitest';
import { openStore } from '@galley/store';
import { describeStores, lockWaitBegun } from './stores.js';
import { folderState, person, sha } from './projects-fixtures.js';

describeStores('projects', (t) => {
  it('creates a project at revision 1 with its creator as owner and stable page ids', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const project = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: ada.name,
      state: folderState('Site', { 'project.json': 'p1', 'index.html': 'i1' }),
    });
    expect(project).toMatchObject({
      title: 'Site',
      revision: 1,
      pageCount: 1,
      media: { id: 'web' },
    });
    expect(project.id).toMatch(/^prj_[0-9a-z]{20}$/);
    expect(await store.projects.access(project.id, ada.accountNumber)).toMatchObject({
      role: 'owner',
    });
    expect(await store.projects.access(project.id, ada.accountNumber + 1)).toBeNull();
    const ids = await store.projectRevisions.pageIds(project.id);
    expect(ids.get('index.html')).toMatch(/^pg_/);
    const state = await store.projectRevisions.state(project.id, 1);
    expect(state?.manifest.get('index.html')).toEqual({ sha256: sha('i1'), size: 2, revision: 1 });
  });

  it('gives each page of a large folder an id of its own, names with quotes and accents too', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const pages = Array.from({ length: 300 }, (_, i) => `pages/${i}-"été".html`);
    const files: Record<string, string> = { 'project.json': 'p1' };
    for (const page of pages) files[page] = page;
    const project = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: ada.name,
      state: folderState('Large', files, pages),
    });
    const ids = await store.projectRevisions.pageIds(project.id);
    expect([...ids.keys()].sort()).toEqual([...pages].sort());
    expect(new Set(ids.values()).size).toBe(pages.length);
    for (const id of ids.values()) expect(id).toMatch(/^pg_[0-9a-z]{20}$/);
  });

  it('answers access from what is stored now, after any write in this or another process', async () => {
    const { store, options } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: ada.name,
      state: folderState('Site', { 'project.json': 'p1', 'index.html': 'i1' }),
    });
    // As a request asks (on PostgreSQL the caches are used only there).
    const roleOf = (n: number) =>
      store.withFreshCaches(async () => (await store.projects.access(id, n))?.role ?? null);
    expect(await roleOf(bob.accountNumber)).toBeNull();
    expect(await roleOf(bob.accountNumber)).toBeNull(); // asked twice: the same answer
    await store.projectMembers.put(id, bob.accountNumber, 'viewer');
    expect(await roleOf(bob.accountNumber)).toBe('viewer');
    expect(await roleOf(bob.accountNumber)).toBe('viewer');
    await store.projectMembers.put(id, bob.accountNumber, 'editor');
    expect(await roleOf(bob.accountNumber)).toBe('editor');
    // Another process (the CLI, a second server) changes the membership.
    const other = await openStore(options);
    try {
      await other.projectMembers.remove(id, bob.accountNumber);
    } finally {
      await other.close();
    }
    expect(await roleOf(bob.accountNumber)).toBeNull();
    expect(await roleOf(ada.accountNumber)).toBe('owner');
    // Inside a transaction, the transaction's own writes are seen.
    await store.transaction(async (tx) => {
      await tx.projectMembers.put(id, bob.accountNumber, 'viewer');
      expect((await tx.projects.access(id, bob.accountNumber))?.role).toBe('viewer');
    });
    expect(await roleOf(bob.accountNumber)).toBe('viewer');
    expect(await store.projects.delete(id)).toBe(true);
    expect(await roleOf(ada.accountNumber)).toBeNull();
  });

  it('lists an account’s projects newest first, page by page', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    for (let i = 0; i < 5; i++) {
      t.clock.advanceSeconds(1);
      await store.projects.create({
        accountNumber: ada.accountNumber,
        byName: 'Ada',
        state: folderState(`P${i}`, { 'index.html': `x${i}` }),
      });
    }
    const first = await store.projects.listFor(ada.accountNumber, { limit: 2 });
    expect(first.map((a) => a.project.title)).toEqual(['P4', 'P3']);
    const last = first.at(-1)!.project;
    const next = await store.projects.listFor(ada.accountNumber, {
      limit: 10,
      after: { createdAt: last.createdAt, id: last.id },
    });
    expect(next.map((a) => a.project.title)).toEqual(['P2', 'P1', 'P0']);
    expect(await store.projects.listFor(bob.accountNumber, { limit: 10 })).toEqual([]);
  });

  it('records revisions, keeps the revision that last changed each file, and undoes and redoes', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const files = { 'project.json': 'p', 'index.html': 'i1', 'about.html': 'a1' };
    const pages = ['index.html', 'about.html'];
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState('S', files, pages),
    });
    const change = (state: ReturnType<typeof folderState>, kind: 'save' | 'title') =>
      store.transaction(async (tx) => {
        await tx.projects.lockRow(id);
        return tx.projectRevisions.record({
          projectId: id,
          kind,
          state,
          summary: kind,
          accountNumber: ada.accountNumber,
          byName: 'Ada',
          step: 'change',
        });
      });
    const r2 = await change(folderState('S', { ...files, 'index.html': 'i2' }, pages), 'save');
    expect(r2.revision).toBe(2);
    expect(r2.manifest.get('index.html')?.revision).toBe(2);
    expect(r2.manifest.get('about.html')?.revision).toBe(1);
    const r3 = await change(
      folderState('T', { ...files, 'index.html': 'i2', 'project.json': 'p2' }, pages),
      'title',
    );
    expect(await store.projectRevisions.flags(id)).toEqual({ canUndo: true, canRedo: false });

    const move = (direction: 'undo' | 'redo') =>
      store.projectRevisions.move({
        projectId: id,
        direction,
        accountNumber: ada.accountNumber,
        byName: 'Ada',
      });
    expect(await move('undo')).toEqual({ ok: true, revision: 4 });
    const r4 = (await store.projectRevisions.state(id, 4))!;
    expect(r4.contentDigest).toBe(r2.contentDigest);
    expect(r4.title).toBe('S');
    expect((await store.projects.find(id))?.title).toBe('S');
    expect(await move('undo')).toEqual({ ok: true, revision: 5 });
    expect((await store.projectRevisions.state(id, 5))!.manifest.get('index.html')).toMatchObject({
      sha256: sha('i1'),
      revision: 5,
    });
    expect(await move('undo')).toEqual({ ok: false, code: 'nothing_to_undo' });
    expect(await move('redo')).toEqual({ ok: true, revision: 6 });
    expect((await store.projectRevisions.state(id, 6))!.contentDigest).toBe(r2.contentDigest);
    expect(await store.projectRevisions.flags(id)).toEqual({ canUndo: true, canRedo: true });

    // A new change after an undo drops the redo stack.
    await change(folderState('S', { ...files, 'index.html': 'i9' }, pages), 'save');
    expect(await store.projectRevisions.flags(id)).toEqual({ canUndo: true, canRedo: false });
    expect(await move('redo')).toEqual({ ok: false, code: 'nothing_to_redo' });

    const history = await store.projectRevisions.history(id, { limit: 3 });
    expect(history.map((e) => [e.revision, e.kind])).toEqual([
      [7, 'save'],
      [6, 'redo'],
      [5, 'undo'],
    ]);
    expect(history[1]?.summary).toContain(`revision 2`);
    const older = await store.projectRevisions.history(id, { limit: 10, before: 5 });
    expect(older.map((e) => e.kind)).toEqual(['undo', 'title', 'save', 'create']);
    expect(r3.revision).toBe(3);
  });

  it('keeps one commit answer per commit id', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState('S', { 'index.html': 'i' }),
    });
    const commit = '3f0e4c1e-8a55-4a0e-9a38-6f1c1f2b9d10';
    expect(await store.projectRevisions.findCommit(id, commit)).toBeNull();
    await store.projectRevisions.recordCommit(id, commit, { revision: 2 });
    expect(await store.projectRevisions.findCommit(id, commit)).toEqual({ revision: 2 });
    await expect(
      store.projectRevisions.recordCommit(id, commit, { revision: 3 }),
    ).rejects.toThrow();
  });

  // What a save's replay check under the project row lock relies on: a writer that waited for the
  // row reads the commit id the holder recorded. (SQLite: the waiting writer would block this
  // one process; there BEGIN IMMEDIATE orders whole transactions.)
  // Only PostgreSQL has row locks that another connection waits on (SQLite orders whole
  // transactions), so the case exists there alone.
  if (t.kind === 'postgres')
    it('shows a writer that waited for the project row the commit id its holder recorded', async () => {
      const { store, options } = await t.fresh();
      const ada = await person(store, 'ada@example.org');
      const { id } = await store.projects.create({
        accountNumber: ada.accountNumber,
        byName: 'Ada',
        state: folderState('S', { 'index.html': 'i' }),
      });
      const other = await openStore(options);
      try {
        const commit = 'c0ffee00-0000-4000-8000-000000000001';
        let recorded!: () => void;
        const written = new Promise<void>((resolve) => (recorded = resolve));
        let finish!: () => void;
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const holding = store.transaction(async (tx) => {
          await tx.projects.lockRow(id);
          await tx.projectRevisions.recordCommit(id, commit, { revision: 2 });
          recorded();
          await finished;
        });
        await written;
        expect(await other.projectRevisions.findCommit(id, commit)).toBeNull();
        const waiting = other.transaction(async (tx) => {
          await tx.projects.lockRow(id);
          return tx.projectRevisions.findCommit(id, commit);
        });
        await lockWaitBegun(store);
        finish();
        await holding;
        expect(await waiting).toEqual({ revision: 2 });
      } finally {
        await other.close();
      }
    });

  it('keeps at least one owner', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org', 'Ada');
    const bob = await person(store, 'bob@example.org', 'Bob');
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState('S', { 'index.html': 'i' }),
    });
    const members = store.projectMembers;
    expect(await members.put(id, ada.accountNumber, 'editor')).toEqual({
      ok: false,
      code: 'last_owner',
    });
    expect(await members.remove(id, ada.accountNumber)).toEqual({ ok: false, code: 'last_owner' });
    expect(await members.put(id, bob.accountNumber, 'viewer')).toEqual({ ok: true });
    expect((await members.list(id)).map((m) => [m.name, m.role])).toEqual([
      ['Ada', 'owner'],
      ['Bob', 'viewer'],
    ]);
    // Paged in account-number order: at most `limit`, after an account number.
    const [first] = await members.list(id, { limit: 1 });
    expect(first?.name).toBe('Ada');
    expect(
      (await members.list(id, { limit: 5, after: first!.accountNumber })).map((m) => m.name),
    ).toEqual(['Bob']);
    expect(await members.list(id, { after: bob.accountNumber })).toEqual([]);
    expect(await members.put(id, bob.accountNumber, 'owner')).toEqual({ ok: true });
    expect(await members.put(id, ada.accountNumber, 'editor')).toEqual({ ok: true });
    expect(await members.remove(id, bob.accountNumber)).toEqual({ ok: false, code: 'last_owner' });
    expect(await members.remove(id, ada.accountNumber)).toEqual({ ok: true });
    expect(await members.remove(id, ada.accountNumber)).toEqual({ ok: false, code: 'not_member' });
    expect(await members.roleOf(id, bob.accountNumber)).toBe('owner');
  });

  it('numbers confirmations per project, even when they race', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState('S', { 'index.html': 'i' }),
    });
    const confirm = (note: string) =>
      store.transaction(async (tx) => {
        await tx.projects.lockRow(id);
        return tx.confirmations.create({
          projectId: id,
          revision: 1,
          sha256: sha('zip'),
          size: 10,
          contentDigest: sha('content'),
          note,
          accountNumber: ada.accountNumber,
          byName: 'Ada',
        });
      });
    const made = await Promise.all(['a', 'b', 'c'].map(confirm));
    expect(made.map((c) => c.version).sort()).toEqual([1, 2, 3]);
    expect(made[0]?.id).toMatch(/^cnf_/);
    expect((await store.confirmations.latest(id))?.version).toBe(3);
    expect(
      (await store.confirmations.list(id, { limit: 5, before: 3 })).map((c) => c.version),
    ).toEqual([2, 1]);
    expect((await store.confirmations.byVersion(id, 2))?.sha256).toBe(sha('zip'));
    expect(await store.confirmations.byVersion(id, 9)).toBeNull();
  });

  it('deletes a project with everything recorded about it', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const { id } = await store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState('S', { 'index.html': 'i' }),
    });
    expect(await store.projects.delete(id)).toBe(true);
    expect(await store.projects.find(id)).toBeNull();
    expect(await store.projectRevisions.state(id, 1)).toBeNull();
    expect(await store.projectMembers.list(id)).toEqual([]);
    expect((await store.projectRevisions.pageIds(id)).size).toBe(0);
  });
});
