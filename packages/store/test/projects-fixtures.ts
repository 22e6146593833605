// Small builders for the projects domain tests: accounts and folder states with made-up hashes
// (repositories never read the bytes, so none need to exist).
import { sha256Hex } from '@galley/store';
import type { Store } from '@galley/store';

type FolderState = Parameters<Store['projects']['create']>[0]['state'];

export const sha = (seed: string): string => sha256Hex(seed);

/** A web-medium folder state whose files are `path → content seed`. */
export function folderState(
  title: string,
  files: Record<string, string>,
  pages: string[] = ['index.html'],
): FolderState {
  return {
    title,
    media: { id: 'web', version: 1 },
    pages: pages.map((file) => ({ file, title: file, public_url: `/${file}` })),
    files: new Map(
      Object.entries(files).map(([path, seed]) => [path, { sha256: sha(seed), size: seed.length }]),
    ),
  };
}

export async function person(store: Store, email: string, name = email.split('@')[0]!) {
  const created = await store.accounts.create({ email, name, password: 'pw' });
  if (!created.ok) throw new Error(`account ${email}: ${created.code}`);
  return created.account;
}

/** A one-page project named 'Site', made by `owner`; its id. */
export async function siteOf(store: Store, owner: { accountNumber: number; name: string }) {
  const project = await store.projects.create({
    accountNumber: owner.accountNumber,
    byName: owner.name,
    state: folderState('Site', { 'project.json': 'p1', 'index.html': 'i1' }),
  });
  return project.id;
}
