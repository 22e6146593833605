import { writeSync } from 'node:fs';
import { CodedError } from './lib/coded-error.js';

/** Where a command writes, and the environment it reads: passed in so commands stay testable. */
export interface CliIo {
  out(text: string): void;
  /**
   * Writes `text` to stdout and settles once it was written, rejecting with the reason it
   * could not be: for an answer that exists nowhere else (a generated password, a new token),
   * so the command can undo what it made instead of leaving a record whose secret was lost.
   */
  deliver(text: string): Promise<void>;
  err(text: string): void;
  env: Record<string, string | undefined>;
}

/** Set when a `deliver` saw stdout fail: its command reports that, not the stream guard. */
let deliveryFailed = false;

type StandardStream = 'stdout' | 'stderr';

/**
 * Writes `text` and a newline to fd 1 or 2 at once, as Node writes to files and pipes anyway,
 * without creating process.stdout or process.stderr: Node builds each on first use, a few
 * milliseconds of a short command (the net and stream modules for a pipe). A pipe another
 * program left non-blocking (EAGAIN) gets the rest through the stream; a failure ends the run
 * as a stream's would (see `guardStandardStreams`).
 */
function writeLine(stream: StandardStream, text: string): void {
  const bytes = Buffer.from(`${text}\n`);
  let written = 0;
  try {
    while (written < bytes.length)
      written += writeSync(stream === 'stdout' ? 1 : 2, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN')
      process[stream].write(bytes.subarray(written));
    else streamFailed(stream, error as NodeJS.ErrnoException);
  }
}

export const processIo: CliIo = {
  out: (text) => writeLine('stdout', text),
  deliver: (text) =>
    new Promise((resolve, reject) => {
      process.stdout.write(`${text}\n`, (error) => {
        if (!error) return resolve();
        deliveryFailed = true;
        reject(error);
      });
    }),
  err: (text) => writeLine('stderr', text),
  env: process.env,
};

let failed = false;

/** The end of a run whose stdout or stderr failed: see `guardStandardStreams`. */
function streamFailed(stream: StandardStream, error: NodeJS.ErrnoException): void {
  if (failed || (stream === 'stdout' && deliveryFailed)) return;
  failed = true;
  if (error.code !== 'EPIPE' && stream === 'stdout') {
    try {
      writeSync(2, `galley: cannot write to standard output: ${error.message}\n`);
    } catch {
      // stderr is gone as well: the exit code is all that is left.
    }
  }
  process.exit(1);
}

/**
 * Runs `use` on process.stdout or process.stderr when something first asks for it (`deliver`,
 * a library), so that Node creates it only then (see `writeLine`).
 */
function whenCreated(name: StandardStream, use: (stream: NodeJS.WriteStream) => void): void {
  const created = Object.getOwnPropertyDescriptor(process, name);
  if (created?.get === undefined || created.configurable !== true) return use(process[name]);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: created.enumerable ?? true,
    get() {
      Object.defineProperty(process, name, created);
      const stream = process[name];
      use(stream);
      return stream;
    },
  });
}

/**
 * Failures of stdout and stderr themselves (a closed pipe, a full disk, `> /dev/full`): without
 * a handler Node prints an "Unhandled 'error' event" stack. A reader that went away (EPIPE)
 * ends the run quietly; anything else is one `galley:` line on stderr, if stderr still works.
 * Either way the exit code is 1: the answer did not arrive. A failed `deliver` is left to its
 * command, which undoes its work before it says so.
 */
export function guardStandardStreams(): void {
  for (const name of ['stdout', 'stderr'] as const)
    whenCreated(name, (stream) => {
      stream.on('error', (error: NodeJS.ErrnoException) => streamFailed(name, error));
    });
}

export type CliErrorCode = 'email_taken' | 'unknown_account' | 'unknown_token' | 'invalid_option';

/** A failure the user caused: printed as `galley: <message>` with exit code 1, no stack. */
export class CliError extends CodedError<CliErrorCode> {
  constructor(code: CliErrorCode, message: string) {
    super('CliError', code, message);
  }
}
