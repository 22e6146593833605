import { randomUUID } from 'node:crypto';
import { createClient } from '@galley/client';
import { createGalleyMcp } from '@galley/mcp';
import type { GalleyMcp } from '@galley/mcp';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express from 'express';
import type { Express, Request, Response } from 'express';
import { authOf } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { HttpProblem, problemOf, sendProblem } from '../http/problem.js';

/** A session nobody used for this long ends (its locks are released). */
const IDLE_MS = 30 * 60 * 1000;

interface Session {
  readonly mcp: GalleyMcp;
  readonly transport: StreamableHTTPServerTransport;
  readonly accountNumber: number;
  idle: NodeJS.Timeout;
}

/**
 * `/mcp`: the MCP server over Streamable HTTP, for agents that reach the service directly. The
 * caller authenticates with an API token (`Authorization: Bearer`), as on the interfaces; each
 * MCP session acts through the typed client with that token and its own editor client, so its
 * rights are the account's and its locks are its own. A session ends when its client deletes
 * it, after IDLE_MS unused, or when the server stops; its locks are released then.
 */
export function mcpRoute(app: Express, deps: Deps, version: string): void {
  const sessions = new Map<string, Session>();
  const end = (id: string) => {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    sessions.delete(id);
    clearTimeout(session.idle);
    return session.mcp.close().catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'mcp: ending a session failed');
    });
  };
  const touch = (id: string, session: Session) => {
    clearTimeout(session.idle);
    session.idle = setTimeout(() => void end(id), IDLE_MS);
    session.idle.unref();
  };
  deps.onStop(async () => {
    await Promise.all([...sessions.keys()].map(end));
  });

  const body = express.json({ limit: deps.config.jsonLimitBytes });
  app.all('/mcp', body, async (req: Request, res: Response) => {
    try {
      const auth = authOf(req);
      if (auth.via !== 'token') {
        throw problemOf('unauthorized', {
          detail: 'The MCP endpoint takes an API token (Authorization: Bearer).',
        });
      }
      const account = auth.account.accountNumber;
      const id = req.get('mcp-session-id');
      if (id !== undefined) {
        const session = sessions.get(id);
        if (!session || session.accountNumber !== account) {
          throw problemOf('not_found', { detail: 'No such MCP session: initialize a new one.' });
        }
        touch(id, session);
        await session.transport.handleRequest(req, res, req.body);
        return;
      }
      if (req.method !== 'POST') {
        throw problemOf('bad_request', {
          detail: 'Start an MCP session with a POST of `initialize`.',
        });
      }
      const token = /^Bearer\s+(\S+)/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
      const client = createClient({
        baseUrl: deps.config.baseUrl,
        assetBaseUrl: deps.config.assetBaseUrl,
        token,
        editorClient: randomUUID(),
      });
      const mcp = createGalleyMcp({
        client,
        version,
        renewMs: deps.config.mcpRenewSeconds * 1000,
      });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => {
          const session: Session = {
            mcp,
            transport,
            accountNumber: account,
            idle: setTimeout(() => undefined, 0),
          };
          sessions.set(sessionId, session);
          touch(sessionId, session);
        },
        onsessionclosed: (sessionId) => end(sessionId),
      });
      await mcp.server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      // An answer that started no session (a refused initialize) leaves nothing behind.
      if (transport.sessionId === undefined) await mcp.close();
    } catch (error) {
      if (error instanceof HttpProblem && !res.headersSent) sendProblem(res, error);
      else throw error;
    }
  });
}
