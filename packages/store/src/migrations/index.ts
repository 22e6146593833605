// Every migration, by name. Names sort in the order they run; a new domain adds one line.
import type { Migration } from 'kysely';
import * as accounts from './001_accounts.js';
import * as projects from './002_projects.js';
import * as assets from './003_assets.js';
import * as requestKeyLeases from './004_request_key_leases.js';
import * as keptContents from './005_kept_contents.js';
import * as draftEventState from './006_draft_event_state.js';
import * as serviceTurns from './009_service_turns.js';
import * as events from './010_events.js';
import * as projectListing from './007_project_listing.js';
import * as draftSnapshots from './008_draft_snapshots.js';
import * as changeCounts from './011_change_counts.js';
import * as shownRevisions from './012_shown_revisions.js';
import * as mcpSessions from './013_mcp_sessions.js';

export const migrations: Record<string, Migration> = {
  '001_accounts': accounts,
  '002_projects': projects,
  '003_assets': assets,
  '004_request_key_leases': requestKeyLeases,
  '005_kept_contents': keptContents,
  '006_draft_event_state': draftEventState,
  '009_service_turns': serviceTurns,
  '010_events': events,
  '007_project_listing': projectListing,
  '008_draft_snapshots': draftSnapshots,
  '011_change_counts': changeCounts,
  '012_shown_revisions': shownRevisions,
  '013_mcp_sessions': mcpSessions,
};
