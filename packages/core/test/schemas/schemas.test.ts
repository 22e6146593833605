import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getSchema, listSchemas, schemaByUri, validateJson } from '@galley/core';

const generator = new URL('../../scripts/generate-validators.mjs', import.meta.url);
const generated = new URL('../../src/schemas/generated/validators.ts', import.meta.url);

describe('schemas', () => {
  it('lists project, production, palette and copy, each readable by kind/version and by URI', () => {
    const list = listSchemas();
    expect(list.map((s) => s.uri)).toEqual([
      'svc://schemas/project/1',
      'svc://schemas/production/1',
      'svc://schemas/palette/1',
      'svc://schemas/copy/1',
    ]);
    for (const { kind, version, uri, title } of list) {
      const schema = getSchema(kind, version) as { $id: string; title: string; $schema: string };
      expect(schema.$id).toBe(uri);
      expect(schema.title).toBe(title);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(getSchema(kind, String(version))).toBe(schema);
      expect(schemaByUri(uri)).toBe(schema);
    }
    expect(getSchema('project', 2)).toBeUndefined();
    expect(getSchema('nothing', 1)).toBeUndefined();
    expect(schemaByUri('svc://schemas/project/9')).toBeUndefined();
  });

  it('validates project.json', () => {
    const uri = 'svc://schemas/project/1';
    const good = {
      format: 1,
      title: 'Home',
      media: { id: 'web', version: 1 },
      pages: [{ file: 'index.html', title: 'Home', public_url: '/' }],
    };
    expect(validateJson(uri, good)).toEqual({ ok: true });
    expect(validateJson(uri, { ...good, format: 2, extra: true })).toEqual({
      ok: false,
      errors: [
        { path: '', message: 'must NOT have additional properties: extra' },
        { path: '/format', message: 'must be equal to constant' },
      ],
    });
    expect(
      validateJson(uri, { ...good, pages: [{ file: 'a.txt', title: 'x', public_url: 'a' }] }),
    ).toMatchObject({
      ok: false,
      errors: [{ path: '/pages/0/file' }, { path: '/pages/0/public_url' }],
    });
    expect(validateJson(uri, 'text')).toMatchObject({
      ok: false,
      errors: [{ path: '', message: 'must be object' }],
    });
  });

  it('validates production, palette and copy', () => {
    const production = {
      format: 1,
      title: 'Spring banner',
      medium: { id: 'banner', version: 1 },
      media_contract: { version: '1.0' },
    };
    expect(validateJson('svc://schemas/production/1', production)).toEqual({ ok: true });
    expect(
      validateJson('svc://schemas/production/1', {
        ...production,
        media_contract: { version: '2.0' },
      }),
    ).toMatchObject({ ok: false, errors: [{ path: '/media_contract/version' }] });

    const palette = {
      title: 'Brand',
      colors: [
        { name: 'Ink', value: '#112233' },
        { name: 'Glass', value: '#11223380' },
      ],
    };
    expect(validateJson('svc://schemas/palette/1', palette)).toEqual({ ok: true });
    expect(
      validateJson('svc://schemas/palette/1', { colors: [{ name: 'Red', value: 'red' }] }),
    ).toMatchObject({ ok: false, errors: [{ path: '/colors/0/value' }] });

    const copy = {
      $schema: 'svc://schemas/copy/1',
      language: 'en-GB',
      blocks: [{ id: 'headline', role: 'headline', text: 'Spring is here' }],
    };
    expect(validateJson('svc://schemas/copy/1', copy)).toEqual({ ok: true });
    expect(
      validateJson('svc://schemas/copy/1', { blocks: [{ id: 'Bad Id', role: 'shout', text: 1 }] }),
    ).toMatchObject({
      ok: false,
      errors: [{ path: '/blocks/0/id' }, { path: '/blocks/0/role' }, { path: '/blocks/0/text' }],
    });
  });

  it('counts title length in code points, as ajv does', () => {
    const title = '😀'.repeat(200); // 400 UTF-16 units, 200 characters
    const production = {
      format: 1,
      title,
      medium: { id: 'web', version: 1 },
      media_contract: { version: '1.0' },
    };
    expect(validateJson('svc://schemas/production/1', production)).toEqual({ ok: true });
    expect(
      validateJson('svc://schemas/production/1', { ...production, title: title + 'x' })?.ok,
    ).toBe(false);
  });

  it('answers undefined for an unknown schema URI', () => {
    expect(validateJson('svc://schemas/nothing/1', {})).toBeUndefined();
  });

  it('ships validators compiled ahead of time that regenerate byte for byte', async () => {
    const { generateValidatorsSource } = (await import(generator.href)) as {
      generateValidatorsSource: () => Promise<string>;
    };
    const committed = readFileSync(generated, 'utf8');
    expect(await generateValidatorsSource()).toBe(committed);
    // No run-time compilation: no eval, no Function constructor, no CommonJS runtime imports.
    expect(committed).not.toMatch(/\bnew Function\b|\beval\(|require\(/);
  });
});
