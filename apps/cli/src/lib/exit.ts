import type { CliIo } from '../io.js';
import { CodedError } from './coded-error.js';

/**
 * Exit codes of the folder and service commands (docs/cli.md): 0 done and every check passed,
 * 1 violations or a refusal by the service, 2 input that could not be used at all.
 */
export const exitCodes = { ok: 0, failed: 1, unusable: 2 } as const;
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

export type InputErrorCode =
  | 'missing'
  | 'unreadable'
  | 'not_a_file'
  | 'symlink_outside'
  | 'symlink_loop'
  | 'too_large'
  | 'no_server'
  | 'no_token'
  | 'invalid_option'
  | 'no_data_folder'
  | 'not_a_folder'
  | 'not_empty';

/** Input that cannot be used at all (exit 2): one clear line, no report. */
export class InputError extends CodedError<InputErrorCode> {
  constructor(code: InputErrorCode, message: string) {
    super('InputError', code, message);
  }
}

/** `value`, unless it is empty or blank: then a usage mistake (exit 2) saying `what` is empty. */
export function notEmpty(value: string, what: string, hint?: string): string {
  if (value.trim() === '')
    throw new InputError(
      'invalid_option',
      `${what} is empty${hint === undefined ? '' : `; ${hint}`}`,
    );
  return value;
}

export type FailureCode =
  | 'refused'
  | 'not_allowed'
  | 'not_found'
  | 'unreachable'
  | 'sha256_mismatch'
  | 'foreign_url'
  | 'timed_out'
  | 'bad_answer'
  | 'listen_failed'
  | 'write_failed';

/** A run that went wrong after the input was accepted (exit 1), e.g. the service refused it. */
export class CommandFailure extends CodedError<FailureCode> {
  constructor(code: FailureCode, message: string, options?: ErrorOptions) {
    super('CommandFailure', code, message, options);
  }
}

/**
 * Runs a command body and sets the process exit code from its result. Typed failures are
 * printed as `galley: <message>` with their exit code; anything else is left to the program's
 * own handler.
 */
export async function runCommand(io: CliIo, body: () => Promise<ExitCode>): Promise<void> {
  let code: ExitCode;
  try {
    code = await body();
  } catch (error) {
    if (!(error instanceof InputError || error instanceof CommandFailure)) throw error;
    io.err(`galley: ${error.message}`);
    code = error instanceof InputError ? exitCodes.unusable : exitCodes.failed;
  }
  if (code !== exitCodes.ok) process.exitCode = code;
}
