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

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(`${text}\n`),
  deliver: (text) =>
    new Promise((resolve, reject) => {
      process.stdout.write(`${text}\n`, (error) => {
        if (!error) return resolve();
        deliveryFailed = true;
        reject(error);
      });
    }),
  err: (text) => void process.stderr.write(`${text}\n`),
  env: process.env,
};

/**
 * Failures of stdout and stderr themselves (a closed pipe, a full disk, `> /dev/full`): without
 * a handler Node prints an "Unhandled 'error' event" stack. A reader that went away (EPIPE)
 * ends the run quietly; anything else is one `galley:` line on stderr, if stderr still works.
 * Either way the exit code is 1: the answer did not arrive. A failed `deliver` is left to its
 * command, which undoes its work before it says so.
 */
export function guardStandardStreams(): void {
  let failed = false;
  const onError = (stream: 'stdout' | 'stderr') => (error: NodeJS.ErrnoException) => {
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
  };
  process.stdout.on('error', onError('stdout'));
  process.stderr.on('error', onError('stderr'));
}

export type CliErrorCode = 'email_taken' | 'unknown_account' | 'unknown_token' | 'invalid_option';

/** A failure the user caused: printed as `galley: <message>` with exit code 1, no stack. */
export class CliError extends CodedError<CliErrorCode> {
  constructor(code: CliErrorCode, message: string) {
    super('CliError', code, message);
  }
}
