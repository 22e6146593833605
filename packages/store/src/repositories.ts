// Every domain's repository, as exposed on the Store (`store.accounts`, …), and the caches the
// domains keep. A new domain adds one line to the object below (and one to `createCaches` if it
// remembers reads).
import { accountCaches, accountRepositories } from './accounts/index.js';
import { projectCaches, projectRepositories } from './projects/index.js';
import { assetRepositories } from './assets/index.js';
import { eventRepositories } from './events/index.js';
import { mcpRepositories } from './mcp/index.js';
import type { RepoScope } from './scope.js';
import type { StoreStamps } from './stamped-cache.js';

/**
 * Once per store, shared by every scope of it (the store, each transaction): a token revoked
 * inside a transaction is forgotten by the store's own cache.
 */
export function createCaches(stamps: StoreStamps) {
  return { accounts: accountCaches(stamps), projects: projectCaches(stamps) };
}

export type Caches = ReturnType<typeof createCaches>;

export function createRepositories(scope: RepoScope, caches: Caches) {
  return {
    ...accountRepositories(scope, caches.accounts),
    ...projectRepositories(scope, caches.projects),
    ...assetRepositories(scope),
    // An event changes no project access nor editing context.
    ...eventRepositories(scope, [caches.projects.access, caches.projects.editing]),
    ...mcpRepositories(scope),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
