// Calling the MCP server's tools with the SDK's own client, as the MCP tests do.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

/** Calls tool `name`: whether it answered an error, its text, and that text as JSON. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = result.content.map((c) => c.text).join('\n');
  return {
    error: result.isError === true,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}
