import type { CheckReport, DraftError, Problem } from '@galley/core';

/** Why something the browser tried did not happen; every kind says whether a request was sent. */
export type Failure =
  /** The local draft engine refused the operation: nothing was sent. */
  | { readonly kind: 'refused'; readonly errors: readonly DraftError[] }
  /** The folder checks failed: locally before any request (`local`), or in the server's 422. */
  | {
      readonly kind: 'checks';
      readonly local: boolean;
      readonly report: Pick<CheckReport, 'checks' | 'violations'>;
    }
  /** The service answered with a problem (RFC 9457). */
  | { readonly kind: 'http'; readonly status: number; readonly problem: Problem }
  /** No answer at all (offline, connection reset). */
  | { readonly kind: 'network'; readonly message: string };

export type Outcome<T> = { readonly ok: true; readonly value: T } | Failed;
export type Failed = { readonly ok: false; readonly failure: Failure };

export const succeed = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = (failure: Failure): Failed => ({ ok: false, failure });

/** One line for a person: the problem's detail, the first refusal, or what went wrong. */
export function describeFailure(failure: Failure): string {
  switch (failure.kind) {
    case 'refused':
      return failure.errors.map((e) => e.message).join(' ');
    case 'checks':
      return `${failure.report.violations.length} problem(s) block the save.`;
    case 'http': {
      const said = [
        failure.problem.detail || `${failure.status} ${failure.problem.title}`,
        ...fieldReasons(failure.problem),
      ].join(' ');
      // Another client's lock: say that nothing was done, and that it can be tried again.
      return failure.status === 423
        ? `Not done: ${said} Try again once the lock is released.`
        : said;
    }
    case 'network':
      return `The service could not be reached (${failure.message}).`;
  }
}

/** A 422's reasons per field (`errors`), which its detail only names: `title: reason.` */
function fieldReasons(problem: Problem): string[] {
  return Object.entries(problem.errors ?? {}).map(
    ([field, reasons]) => `${field || 'The request'}: ${reasons.join('; ')}.`,
  );
}
