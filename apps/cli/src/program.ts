import { isTerminal } from './lib/terminal.js';
import { Command } from 'commander';
import type { CommanderError } from 'commander';
import { commands } from './commands/index.js';
import type { CommandEntry } from './commands/index.js';
import type { CliIo } from './io.js';
import { exitCodes, InputError } from './lib/exit.js';
import { galleyVersion } from './version.js';

/** A usage mistake commander found (or its help shown), with the command it was found on. */
class UsageError extends Error {
  constructor(
    readonly command: Command,
    readonly commanderError: CommanderError,
  ) {
    super(commanderError.message);
    this.name = 'UsageError';
  }
}

/** `galley tokens issue`: the words that name `command`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Commander's own output made to follow docs/cli.md: help goes to stdout; a usage mistake is
 * not printed by commander (nor followed by the usage text) but thrown, for `run` to print as
 * one `galley: …` line with exit code 2. Applied to every command, since each throws its own.
 */
function configure(command: Command, io: CliIo): void {
  command
    .exitOverride((error) => {
      throw new UsageError(command, error);
    })
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, '')),
      // Asked of the descriptor: process.stdout is created only for a terminal (see io.ts).
      getOutHelpWidth: () => (isTerminal(1) ? process.stdout.columns : 80), // commander's default
      getOutHasColors: () => isTerminal(1) && process.stdout.hasColors(),
      // Only help shown for a mistake (a command group without its command) comes here.
      writeErr: () => undefined,
      outputError: () => undefined,
    })
    .showHelpAfterError(false);
  for (const sub of command.commands) configure(sub, io);
}

/** The command `argv` runs (`galley help <name>` asks for its help), if it names one. */
function chosenCommand(argv: string[]): CommandEntry | undefined {
  const words = argv.slice(2).filter((word) => !word.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return commands.find((entry) => entry.name === name);
}

/**
 * The program for `argv`: every command is listed by name and description, and only the one
 * `argv` names is loaded and registered whole, so a command starts with just what it uses.
 */
export async function createProgram(io: CliIo, argv: string[]): Promise<Command> {
  const program = new Command('galley')
    .description('Galley: an open service for editing web and display-media projects')
    .version(galleyVersion(), '-V, --version', 'print the version')
    // `galley --version` before any command: `galley pull … --version N` is pull's own option.
    .enablePositionalOptions()
    .addHelpText('after', "\nRun `galley <command> --help` for a command's arguments and options.");
  const chosen = chosenCommand(argv);
  for (const entry of commands) {
    if (entry === chosen) {
      (await entry.load())(program, io);
      program.commands.at(-1)?.description(entry.description);
    } else program.command(entry.name).description(entry.description);
  }
  configure(program, io);
  return program;
}

/** A usage mistake as the one line after `galley: `; help asked for is no mistake (undefined). */
function usageText(error: UsageError): string | undefined {
  const { commanderError: cause, command } = error;
  if (cause.exitCode === 0) return undefined; // --help, `galley help`, --version
  if (cause.code === 'commander.help') {
    // Help shown for a mistake: a command group without (or with an unknown) command.
    const word = command.args.at(-1);
    const known = command.commands.map((c) => c.name()).join(', ');
    const path = commandPath(command);
    return word === undefined
      ? `no command given; \`${path}\` takes one of: ${known} (see \`${path} --help\`)`
      : `unknown command '${word}' (see \`${path} --help\`)`;
  }
  // Commander looks for required options before arguments; the argument is the first thing a
  // command line names (`galley convert` lacks its site before its -o), so it is said first.
  const missing = command.registeredArguments.find(
    (argument, i) => argument.required && command.args[i] === undefined,
  );
  const text =
    cause.code === 'commander.missingMandatoryOptionValue' && missing !== undefined
      ? `missing required argument '${missing.name()}'`
      : cause.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
  // `check: missing required argument 'folder'`: which command, without repeating `galley`.
  return command.parent ? `${commandPath(command).replace(/^\S+ /, '')}: ${text}` : text;
}

/**
 * Runs the CLI; returns the exit code for failures it reports itself (docs/cli.md): 2 for a
 * usage mistake or unusable input, 1 for a failure once the input was accepted.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    await (await createProgram(io, argv)).parseAsync(argv);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      const text = usageText(error);
      if (text === undefined) return exitCodes.ok;
      io.err(`galley: ${text}`);
      return exitCodes.unusable;
    }
    const e = error as { name?: unknown; message?: unknown };
    io.err(`galley: ${typeof e.message === 'string' ? e.message : 'failed'}`);
    // The server's ConfigError: a setting that cannot be used, as unusable as a bad option.
    if (error instanceof InputError || e.name === 'ConfigError') return exitCodes.unusable;
    return exitCodes.failed; // CliError, CommandFailure, or anything unforeseen
  }
}
