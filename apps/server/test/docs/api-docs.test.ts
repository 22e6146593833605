// What docs/api tells a newcomer: how to authenticate, the fields of every body (each member of
// a union, each multipart field), and only the refusals an operation's input can cause.
import { describe, expect, it } from 'vitest';
import { schemaText } from '../../src/openapi/schema-text.js';
import { renderApiDocs } from '../../src/openapi/render-docs.js';
import { sectionOf } from './markdown-blocks.js';

const files = await renderApiDocs();
type Json = Record<string, unknown>;

/** Every operation of both documents: `GET /projects` and its OpenAPI object. */
function operations(): Array<[string, Json]> {
  return ['v1', 'v2'].flatMap((version) => {
    const document = JSON.parse(files[`${version}.openapi.json`]!) as { paths: Json };
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Json).map(
        ([method, op]) =>
          [`${version} ${method.toUpperCase()} ${path}`, op as Json] as [string, Json],
      ),
    );
  });
}

/** The section of a rendered document under `## METHOD path`. */
function section(version: string, heading: string): string {
  const text = sectionOf(files[`${version}.md`]!, heading);
  expect(text, heading).toBeDefined();
  return text!;
}

describe('docs/api', () => {
  it('says how to send a token, and which operations need none', () => {
    for (const version of ['v1', 'v2']) {
      expect(files[`${version}.md`]).toContain('`Authorization: Bearer glly_…`');
    }
    expect(section('v1', 'GET /schemas/{kind}/{version}')).toContain('No credentials needed.');
    expect(section('v2', 'GET /schemas/{kind}/{version}')).not.toContain('No credentials needed.');
    const open = Object.fromEntries(operations())['v1 GET /schemas/{kind}/{version}']!;
    expect(Object.keys(open.responses as Json)).toEqual(['200', '404', '429', '503', '507']);
  });

  it('writes every shape whole: no member is left as {…}', () => {
    for (const version of ['v1', 'v2']) expect(files[`${version}.md`]).not.toContain('{…}');
    const operation = section('v1', 'POST /pages/{page}/operations');
    for (const kind of ['insert', 'move', 'remove', 'duplicate', 'replace', 'swap']) {
      expect(operation).toMatch(new RegExp(`\\| \\{kind: "${kind}", (target|parent): string`));
    }
  });

  it('names the multipart fields', () => {
    expect(section('v1', 'POST /projects/folder')).toContain('`zip`');
    expect(section('v1', 'POST /projects/{id}/folder')).toContain('`zip`');
    expect(section('v2', 'POST /assets')).toMatch(/\| `file` \| yes \| `file` \|/);
  });

  it('lists a refusal of the body only where the operation reads one, of the kind it reads', () => {
    for (const [name, op] of operations()) {
      const content = Object.keys(
        (op.requestBody as { content?: Json } | undefined)?.content ?? {},
      );
      const responses = op.responses as Record<string, { description: string }>;
      const json = content.includes('application/json');
      expect(responses['400']?.description.includes('not JSON') ?? false, name).toBe(json);
      if (!content.length) {
        expect(responses['413'], name).toBeUndefined();
        expect(responses['415'], name).toBeUndefined();
        expect(responses['422']?.description ?? '', name).not.toContain('request body');
      }
    }
  });
});

describe('schemaText', () => {
  const member = (kind: string) => ({
    type: 'object',
    properties: { kind: { const: kind }, 'a-long-member-name': { type: 'string' } },
    required: ['kind'],
  });

  it('keeps a short type on one line, and breaks a long union into its members', () => {
    expect(
      schemaText({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } }),
    ).toBe('(string | null)[]');
    const union = { oneOf: ['one', 'two', 'three'].map(member) };
    expect(schemaText(union)).toBe(
      [
        '  | {kind: "one", "a-long-member-name"?: string}',
        '  | {kind: "two", "a-long-member-name"?: string}',
        '  | {kind: "three", "a-long-member-name"?: string}',
      ].join('\n'),
    );
    expect(schemaText({ allOf: [{ $ref: '#/components/schemas/Problem' }, union] })).toMatch(
      /^Problem & \(\n {2}\| \{kind: "one"/,
    );
  });
});
