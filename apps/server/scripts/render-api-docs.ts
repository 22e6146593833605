// Writes docs/api/{v1,v2}.openapi.json and their Markdown renderings from the running code's
// route registry, and the types openapi-typescript generates from the documents.
// `pnpm --filter @galley/server api-docs`; a test fails when any is out of date.
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderApiDocs } from '../src/openapi/render-docs.js';
import { CLIENT_TYPES, clientTypes } from './client-types.js';

const out = new URL('../../../docs/api/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const [name, text] of Object.entries(await renderApiDocs())) {
  writeFileSync(new URL(name, out), text);
  console.log(`docs/api/${name}`);
  const types = CLIENT_TYPES.get(name);
  if (!types) continue;
  writeFileSync(new URL(`../${types}`, import.meta.url), await clientTypes(text, name));
  console.log(`apps/server/${types}`);
}
