import type { z } from 'zod';
import { ASSET_ROOT, assetPaths } from '@galley/core';
import type { AssetRoutes, v2 } from '@galley/core';
import { caller } from './call.js';
import type { Binary, transport } from './http.js';
import type { EventQuery } from './events.js';
import { eventStream, streamHeaders } from './events.js';

type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;
type Transport = ReturnType<typeof transport>;

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
  const call = caller<AssetRoutes>(
    http,
    `${assetBaseUrl.replace(/\/$/, '')}${ASSET_ROOT}`,
    assetPaths,
  );
  return {
    /** Any operation of the interface by its route name, typed from the route table. */
    call,
    /** The events of the caller's assets (one connection; see `followEvents`). */
    events: (query: Omit<EventQuery, 'project'> = {}) =>
      eventStream(() =>
        call.response('events', {
          query: { kinds: query.kinds },
          headers: streamHeaders(query.lastEventId),
          ...(query.signal ? { signal: query.signal } : {}),
        }),
      ),
    listAssets: (query: AssetQuery = {}) => call.json('listAssets', { query }),
    createAsset: (body: In<typeof v2.CreateAsset>) => call.json('createAsset', { body }),
    /** Registers a single-file asset (image or font) from its bytes, as multipart. */
    uploadAsset: (
      fields: { request_key: string; kind: 'image' | 'font'; title: string },
      file: Blob,
      name: string,
    ) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      form.set('file', file, name);
      return call.json('createAsset', { form });
    },
    getAsset: (id: string, revision?: number) =>
      call.json('getAsset', { params: { id }, query: { revision } }),
    renameAsset: (id: string, body: In<typeof v2.PatchAsset>) =>
      call.json('renameAsset', { params: { id }, body }),
    listRevisions: (id: string, query: { per_page?: number; page?: string } = {}) =>
      call.json('listRevisions', { params: { id }, query }),
    createRevision: (id: string, body: In<typeof v2.NewRevision>) =>
      call.json('createRevision', { params: { id }, body }),
    getFile: (id: string, path: string, query: FileQuery = {}): Promise<Binary> =>
      call.binary('getFile', {
        params: { id, path },
        query: { revision: query.revision, download: query.download || undefined },
        headers: query.range ? { range: query.range } : {},
      }),
    duplicate: (id: string, body: In<typeof v2.DuplicateAsset>) =>
      call.json('duplicate', { params: { id }, body }),
    copyInto: (id: string, body: In<typeof v2.CopyAsset>) =>
      call.json('copyInto', { params: { id }, body }),
    setState: (id: string, body: In<typeof v2.PutState>) =>
      call.json('setState', { params: { id }, body }),
    deleteAsset: (id: string, body: In<typeof v2.DeleteAsset>) =>
      call.json('deleteAsset', { params: { id }, body }),
    eraseContent: (id: string, revision: number, body: In<typeof v2.EraseContent>) =>
      call.json('eraseContent', { params: { id, n: revision }, body }),
    uploadBlob: (bytes: Uint8Array) => call.json('uploadBlob', { raw: bytes }),
    listSchemas: () => call.json('listSchemas', {}),
    getSchema: (kind: string, version: number) =>
      call.json('getSchema', { params: { kind, version } }),
  };
}
