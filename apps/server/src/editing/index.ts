// The editing interface (/api/v1): every endpoint of editing-api-v1.md with the rules of
// decisions.md §1–§4 and §8. Routes are thin (read, call a service or repository, answer);
// the services hold what outlives a request: parsed drafts and revision states in memory.
import { defaultZipLimits, editingRoutes, events as eventSchemas } from '@galley/core';
import type { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { eventStreamRoute } from '../events/routes.js';
import { StreamSet } from '../events/stream-set.js';
import { EventStreams } from '../events/streams.js';
import { ApiRouter } from '../openapi/api-router.js';
import { webhookRoutes } from '../webhooks/routes.js';
import type { EditingContext } from './context.js';
import { v1ProblemOf } from './problems.js';
import { projectFor } from './routes/access.js';
import { confirmationRoutes } from './routes/confirmations.js';
import { draftRoutes } from './routes/drafts.js';
import { folderRoutes } from './routes/folder.js';
import { historyRoutes } from './routes/history.js';
import { lockRoutes } from './routes/lock.js';
import { memberRoutes } from './routes/members.js';
import { pageRoutes } from './routes/pages.js';
import { projectRoutes } from './routes/projects.js';
import { DraftService } from './service/draft-service.js';
import { EditingSignals } from './service/editing-signals.js';
import { FolderFiles } from './service/folder-files.js';
import { PageEvents } from './service/page-events.js';
import { ProjectChanges } from './service/project-changes.js';
import { RevisionStates } from './service/revision-states.js';
import { SaveService } from './service/save-service.js';
import { SavedPages } from './service/saved-pages.js';
import { Urls } from './urls.js';

const MiB = 1024 * 1024;

/** Memory the editing interface may hold in its caches (each is an LRU bounded by bytes). */
export interface EditingMemory {
  draftBytes: number;
  fileBytes: number;
  stateBytes: number;
}

export const defaultEditingMemory: EditingMemory = {
  draftBytes: 256 * MiB,
  fileBytes: 128 * MiB,
  stateBytes: 32 * MiB,
};

export function editingRouter(deps: ApiDeps, memory: EditingMemory = defaultEditingMemory): Router {
  const { store, clock, config } = deps;
  const files = new FolderFiles({ store, cacheBytes: memory.fileBytes, pool: deps.pool });
  const states = new RevisionStates(store, memory.stateBytes);
  const signals = new EditingSignals(deps.events);
  const changes = new ProjectChanges({ store, states, files, signals });
  const { pool } = deps;
  const drafts = new DraftService({
    store,
    states,
    files,
    signals,
    pool,
    cacheBytes: memory.draftBytes,
  });
  deps.metrics.draftCache(() => drafts.cacheStats);
  const pages = new SavedPages(states, files);
  const events = new PageEvents({ store, drafts, pages, hub: deps.events, logger: deps.logger });
  const pageStreams = new StreamSet({
    maxPerAccount: config.eventStreamsPerAccount,
    stopping: () => v1ProblemOf('stopping', { detail: 'The server is stopping; connect again.' }),
  });
  const streams = new EventStreams({
    hub: deps.events,
    store,
    logger: deps.logger,
    maxPerAccount: config.eventStreamsPerAccount,
  });
  deps.onStop(() => {
    events.close();
    pageStreams.close();
    streams.close();
  });
  const ctx: EditingContext = {
    store,
    clock,
    urls: new Urls(config.baseUrl),
    states,
    files,
    changes,
    drafts,
    pages,
    signals,
    events,
    pageStreams,
    pool,
    jsonLimitBytes: config.jsonLimitBytes,
    maxZipBytes: defaultZipLimits.maxArchiveBytes,
  };
  const saves = new SaveService({ store, drafts, changes, files, clock });
  const api = new ApiRouter({
    routes: editingRoutes,
    registry: deps.registry,
    jsonLimitBytes: config.jsonLimitBytes,
  });
  // The router tries routes in order: the operation path, the busiest, comes first.
  draftRoutes(api, ctx, saves);
  projectRoutes(api, ctx);
  folderRoutes(api, ctx);
  memberRoutes(api, ctx);
  lockRoutes(api, ctx);
  historyRoutes(api, ctx);
  confirmationRoutes(api, ctx);
  pageRoutes(api, ctx);
  eventStreamRoute(api, {
    store,
    streams,
    kinds: eventSchemas.PROJECT_EVENT_KINDS,
  });
  webhookRoutes(api, {
    store,
    dispatcher: deps.webhooks,
    scopeOf: async (req, params) => {
      const access = await projectFor(ctx, req, params.id!, 'owner');
      return { accountNumber: access.auth.account.accountNumber, projectId: access.project.id };
    },
  });
  return api.router;
}
