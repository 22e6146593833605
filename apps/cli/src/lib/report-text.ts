import { shownValues, violationCodes } from '@galley/core/folder';
import type { CheckReport, CodeCatalog, Violation } from '@galley/core/folder';
import type { Paint } from './paint.js';

/** True when no check failed: warnings and `unchecked` (which only comes with warnings) pass. */
export function reportPassed(report: CheckReport): boolean {
  return Object.values(report.checks).every((outcome) => outcome !== 'failed');
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function counts(violations: readonly Violation[]): string {
  const errors = violations.filter((v) => v.severity === 'error').length;
  const warnings = violations.length - errors;
  return [
    ...(errors > 0 ? [plural(errors, 'error')] : []),
    ...(warnings > 0 ? [plural(warnings, 'warning')] : []),
  ].join(', ');
}

/** `img/a.png:12:5 @3`: where the problem is, as precisely as the check could say. */
function placeOf(v: { path: string; line?: number; column?: number; element?: string }) {
  const file = v.path === '' ? '(the archive)' : v.path;
  const line =
    v.line === undefined ? '' : `:${v.line}${v.column === undefined ? '' : `:${v.column}`}`;
  return `${file}${line}${v.element === undefined ? '' : ` ${v.element}`}`;
}

/** Typed values as people write them: sizes as `300×250`, text unquoted, the rest as JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  const size = value as { width?: unknown; height?: unknown } | null;
  if (size && typeof size.width === 'number' && typeof size.height === 'number')
    return `${size.width}×${size.height}`;
  return JSON.stringify(value);
}

/**
 * True when `message` names `value` as a whole word of its own: `/title` in `project.json
 * /title must be string`, not `the` in `the same id` nor `a.png` in `img/a.png`.
 */
function namesValue(message: string, value: string): boolean {
  if (value === '') return false;
  for (let at = message.indexOf(value); at >= 0; at = message.indexOf(value, at + 1)) {
    const before = message.slice(0, at);
    const after = message.slice(at + value.length);
    // A full stop after the value ends the sentence (`U+0007.`) only where no word goes on.
    if (!/[\w./-]$/.test(before) && /^(?:$|[^\w./-]|\.(?:\s|$))/.test(after)) return true;
  }
  return false;
}

/**
 * The typed values worth a line under the message: `expected …, found …` (a pair that reads the
 * same on both sides once, as found: see shownValues). The catalog's text of a code is general
 * and states no value; only a message written for the finding (`…contains the control character
 * U+0007.`) may, and then the value it names is not repeated.
 */
function typedText(v: Violation): string | undefined {
  const catalogued = v.message === (violationCodes as CodeCatalog)[v.code]?.message;
  const { expected, actual } = shownValues(v);
  const shown = (value: unknown) =>
    value !== undefined && (catalogued || !namesValue(v.message, valueText(value)));
  const typed = [
    ...(shown(expected) ? [`expected ${valueText(expected)}`] : []),
    ...(shown(actual) ? [`found ${valueText(actual)}`] : []),
  ];
  return typed.length > 0 ? typed.join(', ') : undefined;
}

function violationText(v: Violation, paint: Paint): string[] {
  const severity = v.severity === 'error' ? paint.red('error  ') : paint.yellow('warning');
  const lines = [`  ${severity}  ${paint.bold(placeOf(v))}  ${paint.dim(v.code)}`];
  const indent = ' '.repeat(11);
  lines.push(`${indent}${v.message}`);
  const typed = typedText(v);
  if (typed !== undefined) lines.push(`${indent}${paint.dim(typed)}`);
  if (v.suggestion !== undefined) lines.push(`${indent}${paint.cyan(`→ ${v.suggestion}`)}`);
  return lines;
}

/**
 * A check report for people: one line per check with its outcome, then the violations grouped
 * by check (in the report's deterministic order), each with its place, code, text and fix.
 */
export function checkReportText(report: CheckReport, paint: Paint, source: string): string {
  const byCheck = new Map<string, Violation[]>();
  for (const v of report.violations) {
    const group = byCheck.get(v.check);
    if (group) group.push(v);
    else byCheck.set(v.check, [v]);
  }
  const names = [...new Set([...Object.keys(report.checks), ...byCheck.keys()])];
  const width = Math.max(...names.map((n) => n.length));
  const lines: string[] = [];
  const total = counts(report.violations);
  lines.push(
    reportPassed(report)
      ? `${paint.bold(source)}: ${paint.green('passed')}${total ? ` (${total})` : ''}`
      : `${paint.bold(source)}: ${paint.red('failed')} (${total})`,
    '',
  );
  for (const name of names) {
    const outcome = report.checks[name as keyof CheckReport['checks']] ?? 'unchecked';
    const mark =
      outcome === 'passed'
        ? paint.green('✓')
        : outcome === 'failed'
          ? paint.red('✗')
          : paint.yellow('?');
    const found = counts(byCheck.get(name) ?? []);
    lines.push(`  ${mark} ${name.padEnd(width)}  ${outcome.padEnd(9)}  ${found}`.trimEnd());
  }
  for (const [name, violations] of byCheck) {
    lines.push('', paint.bold(name));
    for (const v of violations) lines.push(...violationText(v, paint));
  }
  return lines.join('\n');
}
