import type { z } from 'zod';
import type { v2 } from '@galley/core';
import type { transport } from './http.js';
import { type Binary, withQuery } from './http.js';
import type { EventQuery } from './events.js';
import { eventStream } from './events.js';

type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;
type Transport = ReturnType<typeof transport>;
type AssetAnswer = Out<typeof v2.AssetEnvelope>;

export interface AssetQuery {
  q?: string;
  kind?: Out<typeof v2.AssetKind>[];
  medium?: string;
  state?: Out<typeof v2.AssetState>;
  verdict?: 'passed' | 'failed' | 'unchecked';
  sort?: 'updated' | 'title';
  page?: string;
  per_page?: number;
}

export interface FileQuery {
  revision?: number;
  download?: boolean;
  /** A `Range` header value, e.g. `bytes=0-99`. */
  range?: string;
}

/** The asset interface (`/api/v2`), one method per endpoint of asset-api-v2.md. */
export function assetApi(http: Transport, assetBaseUrl: string) {
  const api = `${assetBaseUrl.replace(/\/$/, '')}/api/v2`;
  const asset = (id: string) => `${api}/assets/${encodeURIComponent(id)}`;
  return {
    /** The events of the caller's assets (one connection; see `followEvents`). */
    events: (query: Omit<EventQuery, 'project'> = {}) => eventStream(http, `${api}/events`, query),
    listAssets: (query: AssetQuery = {}) =>
      http.json<Out<typeof v2.AssetList>>({
        method: 'GET',
        url: withQuery(`${api}/assets`, { ...query, kind: query.kind?.join(',') }),
      }),
    createAsset: (body: In<typeof v2.CreateAsset>) =>
      http.json<AssetAnswer>({ method: 'POST', url: `${api}/assets`, body: { json: body } }),
    /** Registers a single-file asset (image or font) from its bytes, as multipart. */
    uploadAsset: (
      fields: { request_key: string; kind: 'image' | 'font'; title: string },
      file: Blob,
      name: string,
    ) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      form.set('file', file, name);
      return http.json<AssetAnswer>({ method: 'POST', url: `${api}/assets`, body: { form } });
    },
    getAsset: (id: string, revision?: number) =>
      http.json<AssetAnswer>({ method: 'GET', url: withQuery(asset(id), { revision }) }),
    renameAsset: (id: string, body: In<typeof v2.PatchAsset>) =>
      http.json<AssetAnswer>({ method: 'PATCH', url: asset(id), body: { json: body } }),
    listRevisions: (id: string, query: { per_page?: number; page?: string } = {}) =>
      http.json<Out<typeof v2.RevisionList>>({
        method: 'GET',
        url: withQuery(`${asset(id)}/revisions`, query),
      }),
    createRevision: (id: string, body: In<typeof v2.NewRevision>) =>
      http.json<AssetAnswer>({
        method: 'POST',
        url: `${asset(id)}/revisions`,
        body: { json: body },
      }),
    getFile: (id: string, path: string, query: FileQuery = {}): Promise<Binary> =>
      http.binary({
        method: 'GET',
        url: withQuery(`${asset(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`, {
          revision: query.revision,
          download: query.download ? 1 : undefined,
        }),
        headers: query.range ? { range: query.range } : {},
      }),
    duplicate: (id: string, body: In<typeof v2.DuplicateAsset>) =>
      http.json<AssetAnswer>({
        method: 'POST',
        url: `${asset(id)}/duplicates`,
        body: { json: body },
      }),
    copyInto: (id: string, body: In<typeof v2.CopyAsset>) =>
      http.json<AssetAnswer>({ method: 'POST', url: `${asset(id)}/copies`, body: { json: body } }),
    setState: (id: string, body: In<typeof v2.PutState>) =>
      http.json<AssetAnswer>({ method: 'PUT', url: `${asset(id)}/state`, body: { json: body } }),
    deleteAsset: (id: string, body: In<typeof v2.DeleteAsset>) =>
      http.json<void>({ method: 'DELETE', url: asset(id), body: { json: body } }),
    eraseContent: (id: string, revision: number, body: In<typeof v2.EraseContent>) =>
      http.json<AssetAnswer>({
        method: 'DELETE',
        url: `${asset(id)}/revisions/${revision}/content`,
        body: { json: body },
      }),
    uploadBlob: (bytes: Uint8Array) =>
      http.json<Out<typeof v2.Blob>>({
        method: 'POST',
        url: `${api}/blobs`,
        body: { raw: bytes, contentType: 'application/octet-stream' },
      }),
    listSchemas: () =>
      http.json<Out<typeof v2.SchemaList>>({ method: 'GET', url: `${api}/schemas` }),
    getSchema: (kind: string, version: number) =>
      http.json<Record<string, unknown>>({
        method: 'GET',
        url: `${api}/schemas/${encodeURIComponent(kind)}/${version}`,
      }),
  };
}
