import { Command } from 'commander';
import { commands } from './commands/index.js';
import type { CliIo } from './io.js';
import { CliError } from './io.js';

export function createProgram(io: CliIo): Command {
  const program = new Command('galley')
    .description('Galley: an open service for editing web and display-media projects')
    .showHelpAfterError();
  for (const register of commands) register(program, io);
  return program;
}

/** Runs the CLI; returns the exit code for failures it reports itself. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    await createProgram(io).parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`galley: ${error.message}`);
      return 1;
    }
    const e = error as { code?: unknown; message?: unknown };
    io.err(`galley: ${typeof e.message === 'string' ? e.message : 'failed'}`);
    return 1;
  }
}
