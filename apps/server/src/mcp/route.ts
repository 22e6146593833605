import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import type { Express, Request, Response } from 'express';
import { authOf } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { HttpProblem, problemOf, sendProblem } from '../http/problem.js';
import { McpSessions } from './sessions.js';
import { exchange } from './web-exchange.js';

/**
 * `/mcp`: the MCP server over Streamable HTTP, for agents that reach the service directly. The
 * caller authenticates with an API token (`Authorization: Bearer`), as on the interfaces; each
 * MCP session acts through the typed client with that token and its own editor client, so its
 * rights are the account's and its locks are its own. Sessions are kept in the store, so any
 * process of the service answers any request of a session (sessions.ts); an account has at
 * most `mcpSessionsPerAccount` live at once.
 */
export function mcpRoute(app: Express, deps: Deps, version: string): void {
  const sessions = new McpSessions(deps, version);
  deps.onStop(() => sessions.close());

  const body = express.json({ limit: deps.config.jsonLimitBytes });
  app.all('/mcp', body, async (req: Request, res: Response) => {
    try {
      const auth = authOf(req);
      if (auth.via !== 'token') {
        throw problemOf('unauthorized', {
          detail: 'The MCP endpoint takes an API token (Authorization: Bearer).',
        });
      }
      const token = /^Bearer\s+(\S+)/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
      const caller = { accountNumber: auth.account.accountNumber, token, tokenId: auth.tokenId };
      const id = req.get('mcp-session-id');
      if (id !== undefined) {
        const copy = await sessions.copyOf(id, caller);
        if (!copy) {
          throw problemOf('not_found', { detail: 'No such MCP session: initialize a new one.' });
        }
        await exchange(copy.transport, req, res);
        return;
      }
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        throw problemOf('bad_request', {
          detail: 'Start an MCP session with a POST of `initialize`.',
        });
      }
      const copy = await sessions.start(caller, req.body);
      if (!copy) {
        const most = deps.config.mcpSessionsPerAccount;
        throw problemOf('too_many_mcp_sessions', {
          detail: `The account has ${most} MCP sessions open, the most it may: end one (DELETE /mcp with its Mcp-Session-Id) or wait until one has been unused for 30 minutes.`,
        });
      }
      await exchange(copy.transport, req, res);
      // An initialize the transport refused started no session: nothing is left behind.
      if (copy.transport.sessionId === undefined) await sessions.end(copy.id);
    } catch (error) {
      if (error instanceof HttpProblem && !res.headersSent) sendProblem(res, error);
      else throw error;
    }
  });
}
