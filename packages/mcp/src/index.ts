// `galley mcp`: the Model Context Protocol server over the typed client, for AI agents. One
// server per agent session: its tools (tools.ts) share the session's locks and drafts.
import type { GalleyClient } from '@galley/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AgentSession } from './session.js';
import { registerTools } from './tools.js';

export { AgentSession, RENEW_MS } from './session.js';

export interface GalleyMcp {
  server: McpServer;
  session: AgentSession;
  /** Ends the session: its locks are released, then the server closes. */
  close(): Promise<void>;
}

/** An MCP server for one agent, acting through `client` (its token, its own editor client). */
export function createGalleyMcp(options: {
  client: GalleyClient;
  /** The locks' label; by default the agent's own name (from its `initialize`). */
  label?: string;
  version: string;
  /** How often each lock the session holds is renewed (by default every 20 seconds). */
  renewMs?: number;
}): GalleyMcp {
  const server = new McpServer({ name: 'galley', version: options.version });
  const session = new AgentSession({
    client: options.client,
    label: options.label ?? 'MCP agent',
    ...(options.renewMs === undefined ? {} : { renewMs: options.renewMs }),
  });
  if (options.label === undefined) {
    server.server.oninitialized = () => {
      const agent = server.server.getClientVersion()?.name;
      if (agent) session.label = `${agent} (MCP)`.slice(0, 200);
    };
  }
  registerTools(server, session);
  let closing: Promise<void> | null = null;
  return {
    server,
    session,
    close: () =>
      (closing ??= (async () => {
        await session.close();
        await server.close();
      })()),
  };
}
