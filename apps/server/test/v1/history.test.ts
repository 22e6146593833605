// Saved history: undo and redo as new revisions, on the condition of the current revision.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryBody, ProblemBody, ProjectBody, TestServer } from './helpers.js';
import { caller, createProject, startV1Server } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

it('undoes and redoes saved changes as new revisions, with the revision precondition', async () => {
  const { id } = await createProject(s, s.token, 'One');
  const ada = caller(s, s.token, 'historian');
  const title = async () => (await ada<ProjectBody>('GET', `/projects/${id}`)).body;
  const move = (direction: string, revision: number) =>
    ada<ProjectBody & Partial<ProblemBody>>('PUT', `/projects/${id}/history`, {
      json: { direction, revision },
    });

  expect((await move('undo', 1)).body).toMatchObject({ status: 409, code: 'nothing_to_undo' });
  await ada('PATCH', `/projects/${id}`, { json: { title: 'Two' } });
  await ada('PATCH', `/projects/${id}`, { json: { title: 'Three' } });

  const wrong = await move('undo', 2);
  expect(wrong.status).toBe(409);
  expect(wrong.body).toMatchObject({ code: 'revision_conflict', current_revision: 3 });

  const undone = await move('undo', 3);
  expect(undone.status).toBe(200);
  expect(undone.body).toMatchObject({ title: 'Two', revision: 4 });
  const twice = await move('undo', 4);
  expect(twice.body).toMatchObject({ title: 'One', revision: 5 });
  expect((await move('undo', 5)).body.code).toBe('nothing_to_undo');

  const redone = await move('redo', 5);
  expect(redone.body).toMatchObject({ title: 'Two', revision: 6 });
  let history = (await ada<HistoryBody>('GET', `/projects/${id}/history`)).body;
  expect(history).toMatchObject({ revision: 6, can_undo: true, can_redo: true });
  expect(history.entries.map((e) => [e.revision, e.kind])).toEqual([
    [6, 'redo'],
    [5, 'undo'],
    [4, 'undo'],
    [3, 'title'],
    [2, 'title'],
    [1, 'create'],
  ]);
  expect(history.entries[3]).toMatchObject({ summary: 'Renamed to “Three”', by: { name: 'Ada' } });

  // A new change after an undo drops the redo stack.
  await ada('PATCH', `/projects/${id}`, { json: { title: 'Four' } });
  history = (await ada<HistoryBody>('GET', `/projects/${id}/history?per_page=3`)).body;
  expect(history).toMatchObject({ revision: 7, can_undo: true, can_redo: false });
  expect(history.entries.map((e) => e.revision)).toEqual([7, 6, 5]);
  const older = (await ada<HistoryBody>('GET', history.next_page_url!)).body;
  expect(older.entries.map((e) => e.revision)).toEqual([4, 3, 2]);
  const oldest = (await ada<HistoryBody>('GET', older.next_page_url!)).body;
  expect(oldest.entries.map((e) => e.revision)).toEqual([1]);
  expect(oldest.next_page_url).toBeNull();
  expect((await move('redo', 7)).body.code).toBe('nothing_to_redo');
  expect((await title()).title).toBe('Four');

  // Revisions only grow: undo back to "Two" is revision 8, not a rewind.
  expect((await move('undo', 7)).body).toMatchObject({ title: 'Two', revision: 8 });
  const invalid = await ada('PUT', `/projects/${id}/history`, {
    json: { direction: 'sideways', revision: 8 },
  });
  expect([invalid.status, Object.keys(invalid.body.errors ?? {})]).toEqual([422, ['direction']]);
});
