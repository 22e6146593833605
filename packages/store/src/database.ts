// The one Kysely database type, composed from each domain's tables.
// A new domain adds its `src/<domain>/tables.ts` and one `& XTables` below.
import type { AccountsTables } from './accounts/tables.js';
import type { ProjectsTables } from './projects/tables.js';
import type { AssetsTables } from './assets/tables.js';
import type { EventsTables } from './events/tables.js';
import type { McpTables } from './mcp/tables.js';

export type Database = AccountsTables & ProjectsTables & AssetsTables & EventsTables & McpTables;
