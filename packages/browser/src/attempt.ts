import { GalleyApiError } from '@galley/client';
import { fail, succeed } from './result.js';
import type { Outcome } from './result.js';

/** Runs one request of the typed client and turns what it throws into a `Failure` value. */
export async function attempt<T>(request: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return succeed(await request());
  } catch (error) {
    if (error instanceof GalleyApiError)
      return fail({ kind: 'http', status: error.status, problem: error.problem });
    return fail({
      kind: 'network',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
