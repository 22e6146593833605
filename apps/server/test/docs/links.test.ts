// The newcomer's docs link to files and headings that exist.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorOf, relativeLinks } from './markdown-blocks.js';

const docs = fileURLToPath(new URL('../../../../docs/', import.meta.url));

describe.each(['quickstart.md', 'folder.md'])('docs/%s', (name) => {
  it('links only to files and headings that exist', () => {
    const links = relativeLinks(readFileSync(join(docs, name), 'utf8'));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const file = path ? join(dirname(join(docs, name)), path) : join(docs, name);
      expect(existsSync(file), link).toBe(true);
      if (anchor === undefined) continue;
      const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
        anchorOf(m[1]!),
      );
      expect(headings, link).toContain(anchor);
    }
  });
});
