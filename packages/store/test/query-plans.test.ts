// A page of a listing costs O(per_page): the database walks an index in the listing's order and
// stops after the page, instead of sorting every row first. Checked on the plans of the very
// queries the repositories send (captured on their way to the database), with enough rows that
// the planner has a choice.
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { isoTime } from '@galley/store';
import type { Store } from '@galley/store';
import { createCaches, createRepositories } from '../src/repositories.js';
import type { Repositories } from '../src/repositories.js';
import { seedProjects, seedRevisions } from './bulk-projects.js';
import { folderState, person } from './projects-fixtures.js';
import { describeStores } from './stores.js';

/** The queries `run` sends through repositories built on `store`, compiled, in order. */
async function queriesOf(
  store: Store,
  run: (repositories: Repositories) => Promise<unknown>,
): Promise<CompiledQuery[]> {
  const sent: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      sent.push(store.db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  const db = store.db.withPlugin(capture);
  // Caches without stamps remember nothing: every call reaches the database, to be captured.
  const none = () => undefined;
  await run(createRepositories({ ...store, db }, createCaches({ change: none, write: none })));
  return sent;
}

/** The plan of `query` as text: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's EXPLAIN. */
async function planOf(store: Store, query: CompiledQuery): Promise<string> {
  if (store.kind === 'sqlite') {
    const { rows } = await store.db.executeQuery<{ detail: string }>({
      ...query,
      sql: `explain query plan ${query.sql}`,
    });
    return rows.map((row) => row.detail).join('\n');
  }
  const { rows } = await store.db.executeQuery<{ 'QUERY PLAN': string }>({
    ...query,
    sql: `explain ${query.sql}`,
  });
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

async function onlyPlan(store: Store, run: (r: Repositories) => Promise<unknown>) {
  const queries = await queriesOf(store, run);
  expect(queries).toHaveLength(1);
  return planOf(store, queries[0]!);
}

function expectIndexOrdered(kind: Store['kind'], plan: string, index: string): void {
  if (kind === 'sqlite') {
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).toContain(index);
  } else {
    expect(plan).not.toMatch(/\bSort\b/);
    expect(plan).toMatch(new RegExp(`Index (Only )?Scan Backward using ${index}`));
  }
}

describeStores('query plans of listings', (t) => {
  let projectId = '';
  let accountNumber = 0;
  let after = { createdAt: '', id: '' };

  beforeAll(async () => {
    const { store } = t;
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    accountNumber = ada.accountNumber;
    // Ada has many projects, Bob more; the planner must not think a sort of Ada's is cheap.
    const ids = await seedProjects(store, { accountNumber, count: 3000 });
    await seedProjects(store, { accountNumber: bob.accountNumber, count: 6000 });
    const middle = (await store.projects.find(ids[1500]!))!;
    after = { createdAt: middle.createdAt, id: middle.id };
    const project = await store.projects.create({
      accountNumber,
      byName: ada.name,
      state: folderState('Site', { 'project.json': 'p1', 'index.html': 'i1' }),
    });
    projectId = project.id;
    await seedRevisions(store, { projectId, accountNumber, count: 3000 });
    await sql`analyze`.execute(store.db);
  });

  it('lists a member’s projects along the membership index, first page and after a cursor', async () => {
    for (const options of [{ limit: 21 }, { limit: 21, after }]) {
      const plan = await onlyPlan(t.store, (r) => r.projects.listFor(accountNumber, options));
      expectIndexOrdered(t.kind, plan, 'project_members_listing_idx');
    }
    const page = await t.store.projects.listFor(accountNumber, { limit: 3, after });
    expect(page.map((row) => row.project.createdAt)).toEqual(
      [1499, 1498, 1497].map((s) => isoTime(new Date(Date.UTC(2030, 0, 1) + s * 1000))),
    );
  });

  it('reads a project’s history along its primary key, first page and before a revision', async () => {
    for (const options of [{ limit: 21 }, { limit: 21, before: 1500 }]) {
      const plan = await onlyPlan(t.store, (r) => r.projectRevisions.history(projectId, options));
      const index =
        t.kind === 'sqlite' ? 'sqlite_autoindex_project_revisions_1' : 'project_revisions_pkey';
      expectIndexOrdered(t.kind, plan, index);
    }
  });
});
