import type { z } from 'zod';
import type { v1 } from '@galley/core';
import { readEventStream } from './event-stream.js';
import type { EventQuery } from './events.js';
import { eventStream } from './events.js';
import type { transport } from './http.js';
import { type Binary, withQuery } from './http.js';

type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;
type Transport = ReturnType<typeof transport>;
type Zip = Uint8Array | Blob;
type PageEvent = Out<typeof v1.PageEvent>;
const PAGE_EVENTS = new Set<string>(['lock', 'draft', 'saved']);

/**
 * The events of a page's stream, parsed (`data` as JSON), until the stream ends or `signal`
 * aborts it; events of kinds this client does not know are skipped.
 */
async function* pageEventStream(
  http: Transport,
  url: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<PageEvent> {
  const response = await http.response({
    method: 'GET',
    url,
    headers: { accept: 'text/event-stream' },
    ...(signal ? { signal } : {}),
  });
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
  const api = `${baseUrl.replace(/\/$/, '')}/api/v1`;
  const project = (id: string) => `${api}/projects/${encodeURIComponent(id)}`;
  const page = (id: string) => `${api}/pages/${encodeURIComponent(id)}`;
  return {
    listProjects: (query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v1.ProjectList>>({
        method: 'GET',
        url: withQuery(`${api}/projects`, query),
      }),
    createProject: (zip: Zip, site?: SiteChoices) =>
      http.json<Out<typeof v1.CreatedProject>>({
        method: 'POST',
        url: `${api}/projects/folder`,
        body: { form: zipForm(zip, site) },
      }),
    getProject: (id: string) =>
      http.json<Out<typeof v1.Project>>({ method: 'GET', url: project(id) }),
    renameProject: (id: string, body: In<typeof v1.RenameProject>) =>
      http.json<Out<typeof v1.Project>>({
        method: 'PATCH',
        url: project(id),
        body: { json: body },
      }),
    deleteProject: (id: string) => http.json<void>({ method: 'DELETE', url: project(id) }),
    downloadFolder: (id: string, version?: number): Promise<Binary> =>
      http.binary({
        method: 'GET',
        url: version === undefined ? `${project(id)}/folder` : `${project(id)}/folder/${version}`,
      }),
    replaceFolder: (id: string, zip: Zip) =>
      http.json<Out<typeof v1.CreatedProject>>({
        method: 'POST',
        url: `${project(id)}/folder`,
        body: { form: zipForm(zip) },
      }),
    listPages: (id: string, query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v1.PageList>>({
        method: 'GET',
        url: withQuery(`${project(id)}/pages`, query),
      }),

    listMembers: (id: string, query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v1.MemberList>>({
        method: 'GET',
        url: withQuery(`${project(id)}/members`, query),
      }),
    putMember: (id: string, body: In<typeof v1.PutMember>) =>
      http.json<Out<typeof v1.Members>>({
        method: 'PUT',
        url: `${project(id)}/members`,
        body: { json: body },
      }),
    removeMember: (id: string, user: string) =>
      http.json<Out<typeof v1.Members>>({
        method: 'DELETE',
        url: `${project(id)}/members/${encodeURIComponent(user)}`,
      }),

    lock: (id: string, body: In<typeof v1.PutLock>) =>
      http.json<Out<typeof v1.LockAnswer>>({
        method: 'PUT',
        url: `${project(id)}/lock`,
        body: { json: body },
      }),
    unlock: (id: string) => http.json<void>({ method: 'DELETE', url: `${project(id)}/lock` }),
    /** The lock in force (who is editing, since when), or `{lock: null}`; any member. */
    getLock: (id: string) =>
      http.json<Out<typeof v1.LockState>>({ method: 'GET', url: `${project(id)}/lock` }),

    openDraft: (pageId: string) =>
      http.json<Out<typeof v1.DraftAnswer>>({ method: 'GET', url: `${page(pageId)}/draft` }),
    /** The operations in effect of this client's open draft (404 `no_draft` without one). */
    draftLog: (pageId: string) =>
      http.json<Out<typeof v1.DraftLogAnswer>>({ method: 'GET', url: `${page(pageId)}/draft/log` }),
    /** The page's HTML as saved at `revision` (any member). */
    pageRevision: (pageId: string, revision: number) =>
      http.json<Out<typeof v1.PageRevision>>({
        method: 'GET',
        url: `${page(pageId)}/revisions/${revision}`,
      }),
    /**
     * Live changes of the page (`lock`, `draft`, `saved` events) as an async iterator; it ends
     * when the server ends the stream, or throws when `signal` aborts it. A refusal (404, 429)
     * throws GalleyApiError at the first step.
     */
    pageEvents: (pageId: string, options: { signal?: AbortSignal } = {}) =>
      pageEventStream(http, `${page(pageId)}/events`, options.signal),
    /** The events of the caller's projects (one connection; see `followEvents`). */
    events: (query: EventQuery = {}) => eventStream(http, `${api}/events`, query),
    discardDraft: (pageId: string) =>
      http.json<void>({ method: 'DELETE', url: `${page(pageId)}/draft` }),
    applyOperation: (pageId: string, body: In<typeof v1.OperationRequest>) =>
      http.json<Out<typeof v1.OperationAnswer>>({
        method: 'POST',
        url: `${page(pageId)}/operations`,
        body: { json: body },
      }),
    undoDraft: (pageId: string) =>
      http.json<Out<typeof v1.OperationAnswer>>({
        method: 'POST',
        url: `${page(pageId)}/draft/undo`,
      }),
    redoDraft: (pageId: string) =>
      http.json<Out<typeof v1.OperationAnswer>>({
        method: 'POST',
        url: `${page(pageId)}/draft/redo`,
      }),
    save: (pageId: string, body: In<typeof v1.SaveRequest>) =>
      http.json<Out<typeof v1.Saved>>({
        method: 'PUT',
        url: `${page(pageId)}/operations`,
        body: { json: body },
      }),

    history: (id: string, query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v1.History>>({
        method: 'GET',
        url: withQuery(`${project(id)}/history`, query),
      }),
    moveHistory: (id: string, body: In<typeof v1.HistoryMove>) =>
      http.json<Out<typeof v1.Project>>({
        method: 'PUT',
        url: `${project(id)}/history`,
        body: { json: body },
      }),

    latestConfirmation: (id: string) =>
      http.json<Out<typeof v1.Confirmation>>({
        method: 'GET',
        url: `${project(id)}/confirmations/latest`,
      }),
    listConfirmations: (id: string, query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v1.ConfirmationList>>({
        method: 'GET',
        url: withQuery(`${project(id)}/confirmations`, query),
      }),
    /** Only a person's screen session may confirm; a bearer token gets 403. */
    confirm: (id: string, body: In<typeof v1.Confirm> = {}) =>
      http.json<Out<typeof v1.Confirmation>>({
        method: 'POST',
        url: `${project(id)}/confirmations`,
        body: { json: body },
      }),
    /** Follows a `next_page_url` or `download_url` given by the service. */
    follow: <T>(url: string) => http.json<T>({ method: 'GET', url }),
    download: (url: string): Promise<Binary> => http.binary({ method: 'GET', url }),
  };
}
