import type { z } from 'zod';
import { EDITING_ROOT, editingPaths } from '@galley/core';
import type { EditingRoutes, v1 } from '@galley/core';
import { caller } from './call.js';
import { readEventStream } from './event-stream.js';
import type { EventQuery } from './events.js';
import { eventStream, streamHeaders } from './events.js';
import type { Binary, transport } from './http.js';

type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;
type Transport = ReturnType<typeof transport>;
type Zip = Uint8Array | Blob;
type PageEvent = Out<typeof v1.PageEvent>;
type PageQuery = { per_page?: number; page?: string };
const PAGE_EVENTS = new Set<string>(['lock', 'draft', 'saved']);

/**
 * The events of a page's stream, parsed (`data` as JSON), until the stream ends or `signal`
 * aborts it; events of kinds this client does not know are skipped.
 */
async function* pageEventStream(
  open: () => Promise<Response>,
): AsyncGenerator<PageEvent, void, undefined> {
  const response = await open();
  if (!response.body) return;
  for await (const { event, data } of readEventStream(response.body)) {
    if (PAGE_EVENTS.has(event)) yield { event, data: JSON.parse(data) as unknown } as PageEvent;
  }
}

/**
 * How the service converts an uploaded plain site (the upload's text fields; a project folder
 * ignores them): see `SiteFields` of the server's OpenAPI document.
 */
export interface SiteChoices {
  /** The entry page of a site without `index.html` (it becomes `index.html`). */
  readonly index?: string;
  /** Remove what loads from other origins (an iframe becomes a link) instead of refusing. */
  readonly drop_external?: boolean;
  /** Remove what loads absent local files, or files of a refused type, instead of refusing. */
  readonly drop_missing?: boolean;
}

function zipForm(zip: Zip, site: SiteChoices = {}): FormData {
  const form = new FormData();
  if (site.index !== undefined) form.set('index', site.index);
  if (site.drop_external !== undefined) form.set('drop_external', String(site.drop_external));
  if (site.drop_missing !== undefined) form.set('drop_missing', String(site.drop_missing));
  const blob =
    zip instanceof Blob
      ? zip
      : new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
  form.set('zip', blob, 'folder.zip');
  return form;
}

/** The editing interface (`/api/v1`), one method per endpoint of editing-api-v1.md. */
export function editingApi(http: Transport, baseUrl: string) {
  const call = caller<EditingRoutes>(
    http,
    `${baseUrl.replace(/\/$/, '')}${EDITING_ROOT}`,
    editingPaths,
  );
  return {
    /** Any operation of the interface by its route name, typed from the route table. */
    call,
    listProjects: (query: PageQuery = {}) => call.json('listProjects', { query }),
    createProject: (zip: Zip, site?: SiteChoices) =>
      call.json('createProject', { form: zipForm(zip, site) }),
    getProject: (id: string) => call.json('getProject', { params: { id } }),
    renameProject: (id: string, body: In<typeof v1.RenameProject>) =>
      call.json('renameProject', { params: { id }, body }),
    deleteProject: (id: string) => call.json('deleteProject', { params: { id } }),
    downloadFolder: (id: string, version?: number): Promise<Binary> =>
      version === undefined
        ? call.binary('downloadFolder', { params: { id } })
        : call.binary('downloadVersion', { params: { id, version } }),
    replaceFolder: (id: string, zip: Zip) =>
      call.json('replaceFolder', { params: { id }, form: zipForm(zip) }),
    listPages: (id: string, query: PageQuery = {}) =>
      call.json('listPages', { params: { id }, query }),

    listMembers: (id: string, query: PageQuery = {}) =>
      call.json('listMembers', { params: { id }, query }),
    putMember: (id: string, body: In<typeof v1.PutMember>) =>
      call.json('putMember', { params: { id }, body }),
    removeMember: (id: string, user: string) => call.json('removeMember', { params: { id, user } }),

    lock: (id: string, body: In<typeof v1.PutLock>) =>
      call.json('takeLock', { params: { id }, body }),
    unlock: (id: string) => call.json('releaseLock', { params: { id } }),
    /** The lock in force (who is editing, since when), or `{lock: null}`; any member. */
    getLock: (id: string) => call.json('getLock', { params: { id } }),

    openDraft: (page: string) => call.json('openDraft', { params: { page } }),
    /** The operations in effect of this client's open draft (404 `no_draft` without one). */
    draftLog: (page: string) => call.json('draftLog', { params: { page } }),
    /** The page's HTML as saved at `revision` (any member). */
    pageRevision: (page: string, revision: number) =>
      call.json('pageRevision', { params: { page, revision } }),
    /**
     * Live changes of the page (`lock`, `draft`, `saved` events) as an async iterator; it ends
     * when the server ends the stream, or throws when `signal` aborts it. A refusal (404, 429)
     * throws GalleyApiError at the first step.
     */
    pageEvents: (page: string, options: { signal?: AbortSignal } = {}) =>
      pageEventStream(() =>
        call.response('pageEvents', {
          params: { page },
          headers: streamHeaders(),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      ),
    /** The events of the caller's projects (one connection; see `followEvents`). */
    events: (query: EventQuery = {}) =>
      eventStream(() =>
        call.response('events', {
          query: { kinds: query.kinds, project: query.project },
          headers: streamHeaders(query.lastEventId),
          ...(query.signal ? { signal: query.signal } : {}),
        }),
      ),
    discardDraft: (page: string) => call.json('discardDraft', { params: { page } }),
    applyOperation: (page: string, body: In<typeof v1.OperationRequest>) =>
      call.json('applyOperation', { params: { page }, body }),
    undoDraft: (page: string) => call.json('undoDraft', { params: { page } }),
    redoDraft: (page: string) => call.json('redoDraft', { params: { page } }),
    save: (page: string, body: In<typeof v1.SaveRequest>) =>
      call.json('save', { params: { page }, body }),

    history: (id: string, query: PageQuery = {}) => call.json('history', { params: { id }, query }),
    moveHistory: (id: string, body: In<typeof v1.HistoryMove>) =>
      call.json('moveHistory', { params: { id }, body }),

    latestConfirmation: (id: string) => call.json('latestConfirmation', { params: { id } }),
    listConfirmations: (id: string, query: PageQuery = {}) =>
      call.json('listConfirmations', { params: { id }, query }),
    /** Only a person's screen session may confirm; a bearer token gets 403. */
    confirm: (id: string, body: In<typeof v1.Confirm> = {}) =>
      call.json('confirm', { params: { id }, body }),
    /** Follows a `next_page_url` or `download_url` given by the service. */
    follow: <T>(url: string) => http.json<T>({ method: 'GET', url }),
    download: (url: string): Promise<Binary> => http.binary({ method: 'GET', url }),
  };
}
