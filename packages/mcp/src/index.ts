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
  /** Closes the server without releasing the locks (the session lives on, or ended elsewhere). */
  drop(): Promise<void>;
}

/** The locks' label when none is given: the agent's name from its `initialize`, marked as MCP. */
export function agentLabel(agentName: string | undefined): string {
  return agentName ? `${agentName} (MCP)`.slice(0, 200) : DEFAULT_LABEL;
}

const DEFAULT_LABEL = 'MCP agent';

/** An MCP server for one agent, acting through `client` (its token, its own editor client). */
export function createGalleyMcp(
  options: {
    client: GalleyClient;
    /** The locks' label; by default the agent's own name (from its `initialize`). */
    label?: string;
    version: string;
    /** How often each lock the session holds is renewed (by default every 20 seconds). */
    renewMs?: number;
  } & Pick<ConstructorParameters<typeof AgentSession>[0], 'renew' | 'freshDrafts'>,
): GalleyMcp {
  const { label, version, ...sessionOptions } = options;
  const server = new McpServer({ name: 'galley', version });
  const session = new AgentSession({ ...sessionOptions, label: label ?? DEFAULT_LABEL });
  if (label === undefined) {
    server.server.oninitialized = () => {
      session.label = agentLabel(server.server.getClientVersion()?.name);
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
    drop: () =>
      (closing ??= (async () => {
        session.stop();
        await server.close();
      })()),
  };
}
