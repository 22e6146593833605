// The MCP domain as the Store exposes it: `store.mcpSessions`.
import type { RepoScope } from '../scope.js';
import { McpSessionsRepository } from './mcp-sessions-repository.js';

export function mcpRepositories(scope: RepoScope) {
  return { mcpSessions: new McpSessionsRepository(scope) };
}

export type { McpSessionRecord, OpenMcpSessionResult } from './mcp-sessions-repository.js';
