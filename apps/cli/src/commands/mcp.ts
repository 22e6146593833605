import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { InputError, exitCodes, runCommand } from '../lib/exit.js';
import { connect, withRemoteOptions } from '../lib/remote.js';
import type { RemoteOptions } from '../lib/remote.js';
import { galleyVersion } from '../version.js';

interface McpOptions extends RemoteOptions {
  label: string;
}

/**
 * How often the session renews each lock it holds, from GALLEY_MCP_RENEW_SECONDS (as the
 * service's `/mcp` reads it); undefined: the default (20 seconds).
 */
function renewMsOf(env: CliIo['env']): number | undefined {
  const value = env.GALLEY_MCP_RENEW_SECONDS;
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 50) {
    throw new InputError(
      'invalid_option',
      `GALLEY_MCP_RENEW_SECONDS ${value} is not a number of seconds above 0 and at most 50`,
    );
  }
  return seconds * 1000;
}

/**
 * `galley mcp`: a Model Context Protocol server on stdin and stdout for a local agent, acting
 * on GALLEY_SERVER with GALLEY_TOKEN. Its locks are released when the agent closes stdin.
 */
export function registerMcp(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('mcp'))
    .option('--label <text>', 'the label of the locks the agent takes', 'MCP agent')
    .action((opts: McpOptions) =>
      runCommand(io, async () => {
        const remote = connect(opts, io.env);
        const renewMs = renewMsOf(io.env);
        const { createGalleyMcp } = await import('@galley/mcp');
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const mcp = createGalleyMcp({
          client: remote.client,
          label: opts.label,
          version: galleyVersion(),
          ...(renewMs === undefined ? {} : { renewMs }),
        });
        const transport = new StdioServerTransport();
        const ended = new Promise<void>((resolve) => {
          transport.onclose = resolve;
          process.stdin.once('end', resolve);
          process.once('SIGTERM', resolve);
          process.once('SIGINT', resolve);
        });
        await mcp.server.connect(transport);
        await ended;
        await mcp.close();
        return exitCodes.ok;
      }),
    );
}
