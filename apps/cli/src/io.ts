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
