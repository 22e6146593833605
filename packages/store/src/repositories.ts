// Every domain's repository, as exposed on the Store (`store.accounts`, …).
// A new domain adds one line to the object below.
import { AccountsRepository } from './accounts/accounts-repository.js';
import { SessionsRepository } from './accounts/sessions-repository.js';
import { TokensRepository } from './accounts/tokens-repository.js';
import { projectRepositories } from './projects/index.js';
import { assetRepositories } from './assets/index.js';
import { eventRepositories } from './events/index.js';
import type { RepoScope } from './scope.js';

export function createRepositories(scope: RepoScope) {
  return {
    accounts: new AccountsRepository(scope),
    tokens: new TokensRepository(scope),
    sessions: new SessionsRepository(scope),
    ...projectRepositories(scope),
    ...assetRepositories(scope),
    ...eventRepositories(scope),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
