// Tables of the MCP domain: the sessions of agents over Streamable HTTP (see 013_mcp_sessions).
export interface McpSessionsTable {
  id: string;
  account_number: number;
  /** The API token it was started with: its locks are renewed only while the token is valid. */
  token_id: string;
  /** The editor client (X-Editor-Client) its locks are held by. */
  client: string;
  label: string;
  /** The params of the client's `initialize` request, as JSON. */
  initialize: string;
  created_at: string;
  seen_at: string;
  ended_at: string | null;
}

export interface McpTables {
  mcp_sessions: McpSessionsTable;
}
