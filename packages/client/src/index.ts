import { type ClientOptions, transport } from './http.js';
import { editingApi } from './v1.js';
import { assetApi } from './v2.js';

export { GalleyApiError, type Binary, type ClientOptions } from './http.js';
export type { AssetQuery, FileQuery } from './v2.js';
export type { SiteChoices } from './v1.js';

/** A typed client for both interfaces; runs on Node 20 and in browsers (only `fetch`). */
export function createClient(options: ClientOptions) {
  const http = transport(options);
  return {
    v1: editingApi(http, options.baseUrl),
    v2: assetApi(http, options.assetBaseUrl ?? options.baseUrl),
  };
}
export type GalleyClient = ReturnType<typeof createClient>;
export { readEventStream, type ServerSentEvent } from './event-stream.js';
export { followEvents, type EventQuery, type StreamItem } from './events.js';
