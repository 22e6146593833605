import type { ApiDeps } from '../deps.js';
import type { ContentFactsMemo } from './service/content-facts.js';
import type { ContentLoader } from './service/content-loader.js';
import type { ContentPins } from './service/content-pins.js';
import type { RevisionFilesMemo } from './service/revision-files.js';
import type { Idempotency } from './service/run-once.js';

/** Everything the asset interface's routes and services share. */
export interface AssetContext extends ApiDeps {
  idempotency: Idempotency;
  loader: ContentLoader;
  facts: ContentFactsMemo;
  pins: ContentPins;
  revisionFiles: RevisionFilesMemo;
  /** `{asset_base_url}/api/v2`, for Location and next_page_url. */
  apiUrl: string;
}
