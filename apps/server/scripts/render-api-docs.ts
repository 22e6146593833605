// Writes docs/api/{v1,v2}.openapi.json and their Markdown renderings from the running code's
// route registry. `pnpm --filter @galley/server api-docs`; a test fails when docs/ is out of date.
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderApiDocs } from '../src/openapi/render-docs.js';

const out = new URL('../../../docs/api/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const [name, text] of Object.entries(await renderApiDocs())) {
  writeFileSync(new URL(name, out), text);
  console.log(`docs/api/${name}`);
}
