// docs/folder.md against the code it describes: every member of the project.json schema is in
// its field table, its example is valid, and its media table is the catalog.
import { readFile } from 'node:fs/promises';
import { mediaCatalog, projectSchema, schemaUri, validateJson } from '@galley/core';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, sectionOf } from './markdown-blocks.js';

const doc = await readFile(new URL('../../../../docs/folder.md', import.meta.url), 'utf8');

type Schema = { properties?: Record<string, Schema>; items?: Schema };

/** `media.id`, `pages[].file`…: the path of every member the schema allows. */
function memberPaths(schema: Schema, prefix = ''): string[] {
  if (schema.items) return memberPaths(schema.items, `${prefix}[]`);
  return Object.entries(schema.properties ?? {}).flatMap(([name, member]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return [path, ...memberPaths(member, path)];
  });
}

function section(heading: string): string {
  const text = sectionOf(doc, heading);
  expect(text, heading).toBeDefined();
  return text!;
}

/** The first cells of a table's rows (without their backticks). */
function firstCells(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
}

describe('docs/folder.md', () => {
  it('has a row for every member of the project.json schema, and none the schema lacks', () => {
    const fields = memberPaths(projectSchema as Schema);
    expect(firstCells(section('project.json')).sort()).toEqual(fields.sort());
  });

  it('shows a project.json that the schema takes', () => {
    const [example] = fencedBlocks(doc, 'json');
    expect(validateJson(schemaUri('project', 1), JSON.parse(example!))).toEqual({ ok: true });
  });

  it('lists the media catalog: canvas and file types', () => {
    const media = section('Media');
    expect(firstCells(media)).toEqual(mediaCatalog.map((m) => m.id));
    const rows = media.split('\n').filter((line) => line.startsWith('| `'));
    for (const [i, medium] of mediaCatalog.entries()) {
      const cells = rows[i]!.split('|').map((cell) => cell.trim());
      const canvas = medium.canvas ? `${medium.canvas.width} × ${medium.canvas.height}` : 'none';
      expect(cells[3], medium.id).toBe(canvas);
      const formats = medium.formats.join(', ');
      const sameAsBanner = i > 1 && formats === mediaCatalog[1]!.formats.join(', ');
      expect(cells[4], medium.id).toBe(sameAsBanner ? 'the same as `banner`' : formats);
      expect(medium.version, 'the doc says version 1 for every medium').toBe(1);
    }
  });
});
