// SyncedDraft (packages/browser) against the real editing interface on loopback, in Node: the
// local copy must hold the very HTML the server holds, whatever happens between the two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, readSavedFolder, SyncedDraft } from '@galley/browser';
import type { GalleyClient } from '@galley/browser';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../platform/harness.js';
import { plainSiteZip } from './site-fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

interface Editing {
  client: GalleyClient;
  projectId: string;
  pageId: string;
  /** Requests sent so far, as `METHOD path`. */
  sent: string[];
}

/** A new project from the plain site, and a client (one editor client id) holding its lock. */
async function editing(clientId: string, projectId?: string): Promise<Editing> {
  const sent: string[] = [];
  const counting: typeof fetch = (input, init) => {
    sent.push(
      `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : input).pathname}`,
    );
    return fetch(input, init);
  };
  const client = createClient({
    baseUrl: s.url,
    token: s.token,
    editorClient: clientId,
    fetch: counting,
  });
  const id = projectId ?? (await client.v1.createProject(plainSiteZip())).id;
  await client.v1.lock(id, { kind: 'agent', label: 'synced draft test' });
  const { pages } = await client.v1.listPages(id);
  const pageId = pages.find((p) => p.file === 'index.html')!.id;
  return { client, projectId: id, pageId, sent };
}

async function open(e: Editing): Promise<SyncedDraft> {
  const opened = await SyncedDraft.open(e.client.v1, e.pageId);
  if (!opened.ok) throw new Error(JSON.stringify(opened.failure));
  return opened.value;
}

const serverHtml = async (e: Editing) => (await e.client.v1.openDraft(e.pageId)).html;

describe('SyncedDraft', () => {
  it('applies operations on both sides and keeps the same HTML', async () => {
    const e = await editing('synced-1');
    const draft = await open(e);
    const inserted = await draft.apply({
      kind: 'insert',
      parent: '#content',
      html: '<p id="a">A</p>',
    });
    expect(inserted).toMatchObject({ ok: true, value: { ids: ['a'] } });
    expect((await draft.apply({ kind: 'duplicate', target: '#a' })).ok).toBe(true);
    expect((await draft.undo()).ok).toBe(true);
    expect((await draft.redo()).ok).toBe(true);
    expect(draft.html()).toContain('id="a-2"');
    expect(draft.html()).toBe(await serverHtml(e));
    // header > h1, main > (p#intro > a, p, p#a, p#a-2): the nesting the outline shows (the
    // link to the missing menu.html was unwrapped when the site was converted).
    expect(draft.outlineDepths()).toEqual([0, 1, 0, 1, 2, 1, 1, 1]);
    expect([draft.canUndo, draft.canRedo]).toEqual([true, false]);
  });

  it('refuses locally what the engine refuses, without a request', async () => {
    const e = await editing('synced-2');
    const draft = await open(e);
    const before = e.sent.length;
    const refused = await draft.apply({ kind: 'remove', target: '#nowhere' });
    expect(refused).toMatchObject({ ok: false, failure: { kind: 'refused' } });
    expect(e.sent.length).toBe(before);
  });

  it('picks up a draft opened earlier, and undoes changes it never saw locally', async () => {
    const e = await editing('synced-3');
    const first = await open(e);
    await first.apply({ kind: 'insert', parent: '#content', html: '<p id="early">x</p>' });
    const second = await open(e);
    expect(second.html()).toContain('id="early"');
    expect(second.canUndo).toBe(true);
    expect((await second.undo()).ok).toBe(true);
    expect(second.html()).not.toContain('id="early"');
    expect(second.html()).toBe(await serverHtml(e));
  });

  it('reloads when the server draft moved on behind it (stale token), then goes on', async () => {
    const e = await editing('synced-4');
    const mine = await open(e);
    const other = await open(e);
    await other.apply({ kind: 'insert', parent: '#content', html: '<p id="elsewhere">y</p>' });
    const stale = await mine.apply({ kind: 'remove', target: '#intro' });
    expect(stale).toMatchObject({ ok: false, failure: { kind: 'http', status: 409 } });
    expect(mine.html()).toContain('id="elsewhere"');
    expect(mine.html()).toContain('id="intro"');
    expect((await mine.apply({ kind: 'remove', target: '#intro' })).ok).toBe(true);
    expect(mine.html()).toBe(await serverHtml(e));
  });

  it('checks before saving: a failing draft is not sent; a passing one is saved', async () => {
    const e = await editing('synced-5');
    const draft = await open(e);
    const folder = readSavedFolder((await e.client.v1.downloadFolder(e.projectId)).bytes).folder;
    await draft.apply({ kind: 'insert', parent: '#content', html: '<a href="gone.html">x</a>' });
    const before = e.sent.length;
    const blocked = await draft.save({ folder });
    expect(blocked).toMatchObject({ ok: false, failure: { kind: 'checks', local: true } });
    if (!blocked.ok && blocked.failure.kind === 'checks')
      expect(blocked.failure.report.violations.map((v) => v.code)).toEqual(['links.missing']);
    expect(e.sent.length).toBe(before);

    await draft.undo();
    await draft.apply({ kind: 'insert', parent: '#content', html: '<p>Open daily.</p>' });
    const saved = await draft.save({ folder });
    expect(saved).toMatchObject({ ok: true, value: { revision: 2 } });
    expect(draft.baseRevision).toBe(2);
    expect([draft.canUndo, draft.canRedo]).toEqual([false, false]);
    expect(draft.html()).toBe(await serverHtml(e));
  });

  it('finds locally the very violations of the server’s 422 (byte-equal)', async () => {
    const e = await editing('synced-6');
    const draft = await open(e);
    await draft.apply({
      kind: 'insert',
      parent: '#content',
      html: '<img src="missing.png" alt="">',
    });
    // Save past the local checks, straight through the client: the server refuses.
    const folder = readSavedFolder((await e.client.v1.downloadFolder(e.projectId)).bytes).folder;
    const local = draft.validate(folder);
    const direct = await e.client.v1
      .save(e.pageId, { draft_token: draft.draftToken, commit_id: crypto.randomUUID() })
      .catch((error: unknown) => error as { status: number; problem: { violations: unknown } });
    expect(direct).toMatchObject({ status: 422 });
    expect(
      JSON.stringify((direct as { problem: { violations: unknown } }).problem.violations),
    ).toBe(JSON.stringify(local.violations));
  });
});
