import { shownValues } from '@galley/core';
import type { CheckReport, Violation } from '@galley/core';
import type { Failure } from '../result.js';
import { describeFailure } from '../result.js';
import { h } from './dom.js';
import { loginAgainUrl, signedIn } from './session.js';

const SESSION_ENDED = 'Your session has ended — sign in again.';

/** A 401 on a signed-in page: the session has ended (the page is on its way to the login). */
const sessionEnded = (failure: Failure) =>
  failure.kind === 'http' && failure.status === 401 && signedIn();

/**
 * One line for a person, as the library says it, except that an ended session is said as such:
 * the screen never advises an API token.
 */
export function failureText(failure: Failure): string {
  return sessionEnded(failure) ? SESSION_ENDED : describeFailure(failure);
}

/** `failureText` as nodes: an ended session links to the login, which brings the person back. */
export function failureLine(failure: Failure): Node | string {
  if (!sessionEnded(failure)) return describeFailure(failure);
  return h(
    'span',
    {},
    'Your session has ended — ',
    h('a', { href: loginAgainUrl() }, 'sign in again'),
    '.',
  );
}

/** Where a violation is: file, element, line and column. */
export function place(v: Violation): string {
  const at = [v.path || '(archive)', v.element, v.line === undefined ? undefined : `line ${v.line}`]
    .filter(Boolean)
    .join(' ');
  return v.column === undefined ? at : `${at}:${v.column}`;
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One violation as a list item: severity, code, place, message, expected and actual. */
export function violationItem(v: Violation, extra?: Node): HTMLLIElement {
  const { expected, actual } = shownValues(v);
  return h(
    'li',
    {
      class: v.severity === 'error' ? 'violation error-item' : 'violation warning-item',
      'data-code': v.code,
    },
    h('strong', {}, v.severity === 'error' ? 'Error' : 'Warning'),
    ' ',
    h('code', {}, v.code),
    ' at ',
    h('span', { class: 'mono' }, place(v)),
    ': ',
    v.message,
    expected === undefined ? '' : ` Expected ${shown(expected)}.`,
    actual === undefined ? '' : ` Found ${shown(actual)}.`,
    v.suggestion ? ` ${v.suggestion}` : '',
    extra ?? '',
  );
}

/**
 * A check report: the failed checks, then every violation. `said` is the line already shown above
 * it (a 422's detail names the failed checks too), which is not repeated.
 */
export function reportView(
  report: Pick<CheckReport, 'checks' | 'violations'>,
  said = '',
): HTMLElement {
  const failed = Object.entries(report.checks)
    .filter(([, outcome]) => outcome === 'failed')
    .map(([name]) => name);
  const line = failed.length ? `Failed checks: ${failed.join(', ')}.` : '';
  return h(
    'div',
    { class: 'report' },
    line && line !== said ? h('p', {}, line) : '',
    h(
      'ul',
      {},
      report.violations.map((v) => violationItem(v)),
    ),
  );
}

/** A failure as a paragraph (role alert), with the report when the checks failed: said once. */
export function failureView(failure: Failure): HTMLElement {
  const said = failureText(failure);
  return h(
    'div',
    { role: 'alert', class: 'error-box' },
    h('p', { class: 'error' }, failureLine(failure)),
    failure.kind === 'checks' ? reportView(failure.report, said) : '',
    failure.kind === 'http' && failure.problem.violations
      ? reportView(failure.problem as unknown as CheckReport, said)
      : '',
  );
}
