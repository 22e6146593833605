import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { violationCodes } from '@galley/core';
import { violationCodesMarkdown } from '../src/report/codes-doc.js';

describe('docs/checks.md', () => {
  it('lists every code of the catalog and is current (`pnpm --filter @galley/core codes-doc`)', () => {
    const text = violationCodesMarkdown();
    for (const code of Object.keys(violationCodes)) expect(text).toContain(`\`${code}\``);
    const committed = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8');
    expect(committed).toBe(text);
  });
});
