// Examples of the asset interface's operations: a logo registered, revised and copied into a
// production, by route name.
import { at, ids, requestKey, schemaExample, sha256, webhookExamples } from './example-values.js';

const contracts = { 'media-contract': '1.0', 'svc-contract': '1.0' };
const banner = { id: 'banner', version: 1, label: 'Banner 300×250', type: 'display' };
const check = (standard: string, details: Record<string, unknown> = {}) => ({
  standard,
  contract: 'svc-contract',
  version: '1.0',
  target: 'logo.png',
  verdict: 'passed',
  violations: [],
  details,
});
const inspection = {
  verdict: 'passed',
  media: [{ ...banner, basis: 'canvas' }],
  checks: [check('names'), check('formats', { width: 300, height: 250 }), check('canvas')],
  contracts,
  inspected_at: at(10),
};
const revision = (number: number) => ({
  number,
  ref: `${ids.asset}@${number}`,
  files: [{ path: 'logo.png', media_type: 'image/png', size: 18432, sha256: sha256.png }],
  inspection,
  created_at: at(9 + number),
  erased: false,
});
const asset = (number: number, state = 'active') => ({
  asset: {
    id: ids.asset,
    kind: 'image',
    title: 'Logo',
    state,
    owner: 'user:1001',
    created_at: at(10),
    updated_at: at(9 + number),
    revision: revision(number),
  },
});
const byAsset = { params: { id: ids.asset } };
const key = { request_key: requestKey };
const summary = { verdict: 'passed', media: [{ ...banner, basis: 'canvas' }] };

export const assetExamples = {
  listAssets: {
    answer: {
      assets: [
        {
          id: ids.asset,
          kind: 'image',
          title: 'Logo',
          state: 'active',
          owner: 'user:1001',
          updated_at: at(11),
          revision: { number: 2, ref: `${ids.asset}@2`, inspection: summary },
        },
      ],
      next_page_url: null,
    },
  },
  createAsset: {
    request: {
      ...key,
      kind: 'image',
      title: 'Logo',
      files: [{ path: 'logo.png', blob: sha256.png }],
    },
    answer: asset(1),
  },
  getAsset: { ...byAsset, answer: asset(2) },
  renameAsset: { ...byAsset, request: { ...key, title: 'Logo' }, answer: asset(2) },
  listRevisions: {
    ...byAsset,
    answer: {
      revisions: [2, 1].map((number) => ({
        number,
        ref: `${ids.asset}@${number}`,
        inspection: summary,
        created_at: at(9 + number),
        erased: false,
      })),
      next_page_url: null,
    },
  },
  createRevision: {
    ...byAsset,
    request: {
      ...key,
      base_revision: 1,
      put: [{ path: 'logo.png', blob: sha256.png }],
      remove: [],
    },
    answer: asset(2),
  },
  eraseContent: {
    params: { id: ids.asset, n: 1 },
    request: { ...key, reason: 'A draft that must not be kept' },
    answer: asset(2),
  },
  getFile: { params: { id: ids.asset, path: 'logo.png' } },
  duplicate: {
    ...byAsset,
    request: { ...key, title: 'Logo (copy)' },
    answer: asset(1),
  },
  copyInto: {
    params: { id: ids.production },
    request: {
      ...key,
      base_revision: 3,
      source: { asset: ids.asset, revision: 2 },
      to: 'references/logo/',
    },
  },
  setState: { ...byAsset, request: { ...key, state: 'archived' }, answer: asset(2, 'archived') },
  deleteAsset: { ...byAsset, request: key },
  uploadBlob: { answer: { sha256: sha256.blob, size: 18432 } },
  listSchemas: {
    answer: {
      schemas: [
        { kind: 'project', version: 1, uri: 'svc://schemas/project/1', title: 'project.json' },
      ],
    },
  },
  getSchema: schemaExample,
  events: {
    answer: {
      id: '43',
      kind: 'asset.revised',
      at: at(11),
      data: { asset_id: ids.asset, revision: 2 },
    },
  },
  ...webhookExamples(null, 'asset.revised'),
};
