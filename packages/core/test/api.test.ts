import { describe, expect, it } from 'vitest';
import { EditorClient, v1, v2 } from '@galley/core';

describe('API body schemas', () => {
  it('accepts exactly one shape per file specification', () => {
    expect(v2.FileSpec.safeParse({ path: 'a.json', json: { a: 1 } }).success).toBe(true);
    expect(v2.FileSpec.safeParse({ path: 'a.txt', text: 'x', json: 1 }).success).toBe(false);
    expect(v2.FileSpec.safeParse({ path: 'a.png', blob: 'f'.repeat(64), text: '' }).success).toBe(
      false,
    );
    expect(v2.FileSpec.safeParse({ path: 'a.png', blob: 'nothex' }).success).toBe(false);
  });
  it('reads a comma-separated kind filter and rejects unknown kinds', () => {
    expect(v2.AssetListQuery.parse({ kind: 'image, font' }).kind).toEqual(['image', 'font']);
    expect(v2.AssetListQuery.safeParse({ kind: 'image,video' }).success).toBe(false);
    expect(v2.AssetListQuery.parse({}).state).toBe('active');
  });
  it('bounds per_page to 1..200', () => {
    expect(v2.AssetListQuery.safeParse({ per_page: '0' }).success).toBe(false);
    expect(v2.AssetListQuery.safeParse({ per_page: '201' }).success).toBe(false);
    expect(v2.AssetListQuery.parse({ per_page: '200' }).per_page).toBe(200);
  });
  it('validates X-Editor-Client', () => {
    expect(EditorClient.safeParse('6f1c2d1e-2b1d-4b8e-9d4a-1c2b3d4e5f60').success).toBe(true);
    expect(EditorClient.safeParse('a b').success).toBe(false);
    expect(EditorClient.safeParse('x'.repeat(65)).success).toBe(false);
    expect(EditorClient.safeParse('').success).toBe(false);
  });
  it('rejects unknown fields and bad commit ids', () => {
    expect(v1.SaveRequest.safeParse({ draft_token: 't', commit_id: 'nope' }).success).toBe(false);
    expect(v1.PutLock.safeParse({ kind: 'agent', label: 'x', extra: 1 }).success).toBe(false);
    expect(v1.PutLock.safeParse({ kind: 'robot', label: 'x' }).success).toBe(false);
  });
  it('only lets copies land in a references/ folder ending in /', () => {
    const base = { request_key: crypto.randomUUID(), base_revision: 1, source: { asset: 'ast_1' } };
    expect(v2.CopyAsset.safeParse({ ...base, to: 'references/logo/' }).success).toBe(true);
    expect(v2.CopyAsset.safeParse({ ...base, to: 'references/logo' }).success).toBe(false);
    expect(v2.CopyAsset.safeParse({ ...base, to: 'canvas/' }).success).toBe(false);
    expect(v2.CopyAsset.safeParse({ ...base, to: 'references/../x/' }).success).toBe(false);
  });
});
