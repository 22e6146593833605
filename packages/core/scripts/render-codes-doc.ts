// Writes docs/checks.md from the violation code catalog (`pnpm --filter @galley/core codes-doc`).
import { writeFileSync } from 'node:fs';
import { violationCodesMarkdown } from '../src/report/codes-doc.js';

writeFileSync(new URL('../../../docs/checks.md', import.meta.url), violationCodesMarkdown());
console.log('docs/checks.md');
