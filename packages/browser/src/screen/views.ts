import type { CheckReport, Violation } from '@galley/core';
import type { Failure } from '../result.js';
import { describeFailure } from '../result.js';
import { h } from './dom.js';

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
    v.expected === undefined ? '' : ` Expected ${shown(v.expected)}.`,
    v.actual === undefined ? '' : ` Found ${shown(v.actual)}.`,
    v.suggestion ? ` ${v.suggestion}` : '',
    extra ?? '',
  );
}

/** A check report: the failed checks, then every violation. */
export function reportView(report: Pick<CheckReport, 'checks' | 'violations'>): HTMLElement {
  const failed = Object.entries(report.checks)
    .filter(([, outcome]) => outcome === 'failed')
    .map(([name]) => name);
  return h(
    'div',
    { class: 'report' },
    failed.length ? h('p', {}, `Failed checks: ${failed.join(', ')}.`) : '',
    h(
      'ul',
      {},
      report.violations.map((v) => violationItem(v)),
    ),
  );
}

/** A failure as a paragraph (role alert), with the report when the checks failed. */
export function failureView(failure: Failure): HTMLElement {
  return h(
    'div',
    { role: 'alert', class: 'error-box' },
    h('p', { class: 'error' }, describeFailure(failure)),
    failure.kind === 'checks' ? reportView(failure.report) : '',
    failure.kind === 'http' && failure.problem.violations
      ? reportView(failure.problem as unknown as CheckReport)
      : '',
  );
}
