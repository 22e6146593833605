// Many projects (and revisions) at once, written through the store's own database in multi-row
// inserts: what a listing test or benchmark needs in seconds instead of one transaction each.
// Other packages import it by relative path (test support, not part of the package API).
import { isoTime, newId } from '@galley/store';
import type { Store } from '@galley/store';

const ROWS_PER_INSERT = 500;

/**
 * `count` one-page projects owned by `accountNumber`, created one second apart from `from` (the
 * newest last), each at revision 1 with no history row. Answers their ids, oldest first.
 */
export async function seedProjects(
  store: Store,
  options: { accountNumber: number; count: number; from?: Date },
): Promise<string[]> {
  const start = (options.from ?? new Date('2030-01-01T00:00:00Z')).getTime();
  const ids: string[] = [];
  for (let done = 0; done < options.count; done += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, options.count - done) }, (_, i) => {
      const at = isoTime(new Date(start + (done + i) * 1000));
      return { id: newId('prj'), at };
    });
    ids.push(...rows.map((row) => row.id));
    await store.transaction(async (tx) => {
      await tx.db
        .insertInto('projects')
        .values(
          rows.map(({ id, at }) => ({
            id,
            title: `Project ${id}`,
            media_id: 'web',
            media_version: 1,
            page_count: 1,
            revision: 1,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      await tx.db
        .insertInto('project_members')
        .values(
          rows.map(({ id, at }) => ({
            project_id: id,
            account_number: options.accountNumber,
            role: 'owner',
            added_at: at,
            project_created_at: at,
          })),
        )
        .execute();
    });
  }
  return ids;
}

/** `count` more history rows (saves) on `projectId`, after its current revision. */
export async function seedRevisions(
  store: Store,
  options: { projectId: string; accountNumber: number; count: number },
): Promise<void> {
  const state = await store.projectRevisions.state(options.projectId, 1);
  if (!state) throw new Error(`project ${options.projectId} has no revision 1`);
  const first = (await store.projects.find(options.projectId))!.revision + 1;
  for (let done = 0; done < options.count; done += ROWS_PER_INSERT) {
    const size = Math.min(ROWS_PER_INSERT, options.count - done);
    const rows = Array.from({ length: size }, (_, i) => ({
      project_id: options.projectId,
      revision: first + done + i,
      kind: 'title',
      page_id: null,
      summary: `Change ${first + done + i}`,
      account_number: options.accountNumber,
      by_name: 'Seed',
      at: isoTime(new Date(Date.UTC(2030, 0, 1) + (done + i) * 1000)),
      commit_id: null,
      title: state.title,
      media_id: state.media.id,
      media_version: state.media.version,
      pages: JSON.stringify(state.pages),
      manifest: '{}',
      content_digest: state.contentDigest,
    }));
    await store.db.insertInto('project_revisions').values(rows).execute();
  }
  await store.db
    .updateTable('projects')
    .set({ revision: first + options.count - 1 })
    .where('id', '=', options.projectId)
    .execute();
}
