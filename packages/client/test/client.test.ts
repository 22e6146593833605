// The typed client against the real service on loopback: every operation of both interfaces
// called through it, its answers typed from the route table (no casts) and checked as sent.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '@galley/core';
import { GalleyApiError, createClient } from '@galley/client';
import type { GalleyClient, StreamItem } from '@galley/client';
import { startTestServer } from '../../../apps/server/test/platform/harness.js';
import type { TestServer } from '../../../apps/server/test/platform/harness.js';

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`;
const text = (value: string) => new TextEncoder().encode(value);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** A real 1×1 PNG. */
const png = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

function projectZip(title: string): Uint8Array {
  const project = {
    format: 1,
    title,
    media: { id: 'web', version: 1 },
    pages: [{ file: 'index.html', title: 'Home', public_url: '/' }],
  };
  return writeZip(
    new Map([
      ['project.json', text(`${JSON.stringify(project, null, 2)}\n`)],
      ['index.html', text(page('Home', '<h1 id="top">Shop</h1>\n<p id="intro">Hello</p>'))],
    ]),
  );
}

/** The refusal a call answered with, or a failure when it succeeded. */
async function refusal(call: Promise<unknown>): Promise<GalleyApiError> {
  const error = await call.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof GalleyApiError)) throw error;
  return error;
}

let s: TestServer;
let client: GalleyClient;
beforeAll(async () => {
  s = await startTestServer({ rateLimitPerMinute: 1_000_000 });
  client = createClient({ baseUrl: s.url, token: s.token, editorClient: 'client-test' });
});
afterAll(async () => {
  await s?.close();
});

describe('the editing interface through the client', () => {
  it('creates, edits, saves, undoes in history, exports and deletes a project', async () => {
    const { v1 } = client;
    const created = await v1.createProject(projectZip('Shop'));
    expect(created).toMatchObject({ title: 'Shop', revision: 1, role: 'owner' });
    const id = created.id;
    expect((await v1.listProjects()).projects.map((p) => p.id)).toContain(id);
    expect(await v1.getProject(id)).toMatchObject({ id, title: 'Shop' });
    expect((await v1.renameProject(id, { title: 'Shop 2' })).revision).toBe(2);

    expect((await v1.getLock(id)).lock).toBeNull();
    const { lock } = await v1.lock(id, { kind: 'agent', label: 'client test' });
    expect(lock).toMatchObject({ kind: 'agent', label: 'client test' });
    expect((await v1.getLock(id)).lock?.holder).toEqual(lock.holder);

    const [home] = (await v1.listPages(id)).pages;
    if (!home) throw new Error('no page');
    const draft = await v1.openDraft(home.id);
    expect(draft.html).toContain('id="intro"');
    const removed = await v1.applyOperation(home.id, {
      draft_token: draft.draft_token,
      operation: { kind: 'remove', target: '#intro' },
    });
    expect(removed.can_undo).toBe(true);
    const undone = await v1.undoDraft(home.id);
    expect(undone.can_redo).toBe(true);
    const redone = await v1.redoDraft(home.id);
    expect((await v1.draftLog(home.id)).operations).toEqual([{ kind: 'remove', target: '#intro' }]);
    const saved = await v1.save(home.id, {
      draft_token: redone.draft_token,
      commit_id: randomUUID(),
    });
    expect(saved.revision).toBe(3);
    expect((await v1.pageRevision(home.id, 3)).html).not.toContain('id="intro"');
    expect((await v1.pageRevision(home.id, 1)).html).toContain('id="intro"');

    const history = await v1.history(id);
    expect(history.entries.map((entry) => entry.kind)).toEqual(['save', 'title', 'create']);
    expect((await v1.moveHistory(id, { direction: 'undo', revision: 3 })).revision).toBe(4);

    const zip = await v1.downloadFolder(id);
    expect(zip.headers.get('x-content-sha256')).toBe(sha256(zip.bytes));
    const replaced = await v1.replaceFolder(id, zip.bytes);
    expect(replaced.revision).toBe(5);

    // Confirming is for a person on the screen: a token is refused, with its code.
    const refused = await refusal(v1.confirm(id, { note: 'first' }));
    expect(refused.status).toBe(403);
    expect(refused.problem.code).toBe('confirmation_requires_person');
    expect((await refusal(v1.latestConfirmation(id))).status).toBe(404);
    expect((await v1.listConfirmations(id)).confirmations).toEqual([]);

    const unknown = await refusal(
      v1.putMember(id, { email: 'nobody@example.org', role: 'editor' }),
    );
    expect([unknown.status, unknown.problem.code]).toEqual([422, 'unknown_account']);
    const other = await s.addAccount('bea@example.org', 'Bea');
    const members = await v1.putMember(id, { email: 'bea@example.org', role: 'viewer' });
    expect(members.members?.map((m) => m.role)).toEqual(['owner', 'viewer']);
    expect((await v1.listMembers(id)).members).toHaveLength(2);
    await v1.removeMember(id, String(other.account.accountNumber));
    expect((await v1.listMembers(id)).members).toHaveLength(1);

    expect(await v1.discardDraft(home.id)).toBeUndefined();
    expect(await v1.unlock(id)).toBeUndefined();
    expect(await v1.deleteProject(id)).toBeUndefined();
    const gone = await refusal(v1.getProject(id));
    expect([gone.status, gone.problem.code]).toEqual([404, 'not_found']);
  });

  it('reads a page’s live events and the project events through the route table', async () => {
    const { v1 } = client;
    const { id } = await v1.createProject(projectZip('Live'));
    const [home] = (await v1.listPages(id)).pages;
    if (!home) throw new Error('no page');
    const stop = new AbortController();
    const events = v1.pageEvents(home.id, { signal: stop.signal });
    const first = await events.next();
    expect(first.value).toEqual({ event: 'lock', data: { lock: null } });
    stop.abort();
    await expect(events.next()).rejects.toThrow();

    const follow = new AbortController();
    const stream = v1.events({ project: id, signal: follow.signal });
    const next = stream.next();
    await v1.renameProject(id, { title: 'Live 2' });
    const item: StreamItem | void = (await next).value;
    expect(item).toMatchObject({ kind: 'project.saved', data: { revision: 2 } });
    follow.abort();
  });

  it('calls any route by name, its path filled from the parameters', async () => {
    const { v1, v2 } = client;
    expect(v1.call.url('pageRevision', { params: { page: 'pg_1', revision: 2 } })).toBe(
      `${s.url}/api/v1/pages/pg_1/revisions/2`,
    );
    expect(v2.call.url('getFile', { params: { id: 'ast_1', path: 'canvas/a b.png' } })).toBe(
      `${s.url}/api/v2/assets/ast_1/files/canvas/a%20b.png`,
    );
    const schema = await v1.call.json('getSchema', { params: { kind: 'project', version: 1 } });
    expect(schema.$id).toBe('svc://schemas/project/1');
  });
});

describe('the asset interface through the client', () => {
  it('registers, revises, reads, copies, archives, trashes, erases and deletes assets', async () => {
    const { v2 } = client;
    const key = () => randomUUID();
    const blob = await v2.uploadBlob(png);
    expect(blob.sha256).toBe(sha256(png));
    expect((await v2.uploadBlob(png)).sha256).toBe(blob.sha256);
    const fromBlob = await v2.createAsset({
      request_key: key(),
      kind: 'image',
      title: 'Blob dot',
      files: [{ path: 'dot.png', blob: blob.sha256 }],
    });
    expect(fromBlob.asset.revision.files.map((f) => f.sha256)).toEqual([blob.sha256]);

    const palette = { colors: [{ name: 'Ink', value: '#112233' }] };
    const schema = 'svc://schemas/palette/1';
    const data = await v2.createAsset({
      request_key: key(),
      kind: 'data',
      title: 'Numbers',
      files: [{ path: 'data.json', json: palette, schema }],
    });
    const id = data.asset.id;
    expect(data.asset.revision).toMatchObject({ number: 1 });
    const image = await v2.uploadAsset(
      { request_key: key(), kind: 'image', title: 'Dot' },
      new Blob([png], { type: 'image/png' }),
      'Dot.PNG',
    );
    expect(image.asset.revision.files.map((f) => f.path)).toEqual(['dot.png']);

    const revised = await v2.createRevision(id, {
      request_key: key(),
      base_revision: 1,
      put: [{ path: 'data.json', json: { colors: [{ name: 'Red', value: '#ff0000' }] }, schema }],
    });
    expect(revised.asset.revision).toMatchObject({ number: 2 });
    const part = await v2.getFile(id, 'data.json', { range: 'bytes=0-9' });
    const whole = await v2.getFile(id, 'data.json');
    expect(JSON.parse(new TextDecoder().decode(whole.bytes))).toEqual({
      colors: [{ name: 'Red', value: '#ff0000' }],
    });
    expect(part.bytes).toEqual(whole.bytes.slice(0, 10));
    expect((await v2.getAsset(id, 1)).asset.revision.files.map((f) => f.path)).toEqual([
      'data.json',
    ]);
    expect((await v2.listRevisions(id)).revisions.map((r) => r.number)).toEqual([2, 1]);
    expect((await v2.renameAsset(id, { request_key: key(), title: 'Figures' })).asset.title).toBe(
      'Figures',
    );
    const copy = await v2.duplicate(id, { request_key: key(), title: 'Copy' });
    expect(copy.asset.id).not.toBe(id);
    expect(
      (await v2.listAssets({ kind: ['data'], sort: 'title' })).assets.map((a) => a.title),
    ).toEqual(['Copy', 'Figures']);

    const erased = await v2.eraseContent(id, 1, { request_key: key() });
    expect(erased.asset.id).toBe(id);
    expect((await refusal(v2.getFile(id, 'data.json', { revision: 1 }))).status).toBe(410);
    expect((await v2.setState(id, { request_key: key(), state: 'archived' })).asset.state).toBe(
      'archived',
    );
    await v2.setState(id, { request_key: key(), state: 'deleted' });
    expect(await v2.deleteAsset(id, { request_key: key() })).toBeUndefined();
    expect((await refusal(v2.getAsset(id))).status).toBe(404);

    const schemas = await v2.listSchemas();
    expect(schemas.schemas.length).toBeGreaterThan(0);
    expect((await v2.getSchema('project', 1)).$id).toBe('svc://schemas/project/1');
  });
});
