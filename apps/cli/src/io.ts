import { writeSync } from 'node:fs';

/** Where a command writes, and the environment it reads: passed in so commands stay testable. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
  env: process.env,
};

/**
 * Failures of stdout and stderr themselves (a closed pipe, a full disk, `> /dev/full`): without
 * a handler Node prints an "Unhandled 'error' event" stack. A reader that went away (EPIPE)
 * ends the run quietly; anything else is one `galley:` line on stderr, if stderr still works.
 * Either way the exit code is 1: the answer did not arrive.
 */
export function guardStandardStreams(): void {
  let failed = false;
  const onError = (stream: 'stdout' | 'stderr') => (error: NodeJS.ErrnoException) => {
    if (failed) return;
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
export class CliError extends Error {
  readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.code = code;
  }
}
