// Every `galley` command, one file each. A new command adds its file and one entry below.
// A command's module (and the core, the store or the server it uses) is loaded only when that
// command runs or its help is asked for: `galley --help` loads none of them.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export type RegisterCommand = (program: Command, io: CliIo) => void;

export interface CommandEntry {
  readonly name: string;
  /** One line, shown by `galley --help` and `galley <name> --help`. */
  readonly description: string;
  readonly load: () => Promise<RegisterCommand>;
}

export const commands: readonly CommandEntry[] = [
  {
    name: 'init',
    description: 'make a new project folder that passes `galley check`',
    load: async () => (await import('./init.js')).registerInit,
  },
  {
    name: 'serve',
    description: 'start the service (settings: docs/operations.md)',
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    name: 'accounts',
    description: 'manage accounts',
    load: async () => (await import('./accounts.js')).registerAccounts,
  },
  {
    name: 'tokens',
    description: 'manage API tokens',
    load: async () => (await import('./tokens.js')).registerTokens,
  },
  {
    name: 'check',
    description: 'check a project folder (a ZIP or a directory) against the folder contract',
    load: async () => (await import('./check.js')).registerCheck,
  },
  {
    name: 'convert',
    description: 'convert a plain site (a ZIP or a directory) into a project folder ZIP',
    load: async () => (await import('./convert.js')).registerConvert,
  },
  {
    name: 'pull',
    description: "download a project's folder ZIP (the saved state, or a confirmed version)",
    load: async () => (await import('./pull.js')).registerPull,
  },
  {
    name: 'push',
    description: "replace a project's contents with a folder (a ZIP or a directory)",
    load: async () => (await import('./push.js')).registerPush,
  },
  {
    name: 'mcp',
    description:
      'serve the Model Context Protocol on stdin/stdout for an AI agent (docs/agents.md)',
    load: async () => (await import('./mcp.js')).registerMcp,
  },
  {
    name: 'watch',
    description: "import a project's confirmed versions into a folder as they are confirmed",
    load: async () => (await import('./watch.js')).registerWatch,
  },
];
