import { shownValues } from '@galley/core';
import type { EditorScreen } from './screen.js';
import { NoticeAt } from './notice.js';

const shownValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

const sources = {
  editing: 'Found by the checks in this browser as you edit.',
  'save-local': 'Found by the checks in this browser before anything was sent: nothing was saved.',
  'save-server': 'The service refused the save: nothing was saved.',
} as const;

/** The checks' problems, each one a button that selects the element it is about. */
export function Problems({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const problems = model.problems.value;
  const shown = model.shown.value;
  const errors = problems.filter((p) => p.violation.severity === 'error').length;
  return (
    <section class="panel problems" aria-labelledby="problems-heading" id="problems" tabIndex={-1}>
      <h2 id="problems-heading">
        Problems{' '}
        <span class="count">
          {problems.length === 0
            ? '(none)'
            : `(${errors} blocking, ${problems.length - errors} warning${problems.length - errors === 1 ? '' : 's'})`}
        </span>
      </h2>
      {problems.length ? <p class="hint">{sources[model.problemsFrom.value]}</p> : null}
      <ul class="problem-list">
        {problems.map(({ violation, element }, i) => {
          const here = element && shown ? shown.elements.numberOf(element) !== null : false;
          const { expected, actual } = shownValues(violation);
          return (
            <li
              key={i}
              class={violation.severity === 'error' ? 'problem error-item' : 'problem warning-item'}
            >
              <strong>{violation.severity === 'error' ? 'Blocks saving' : 'Warning'}</strong>
              {': '}
              {violation.message}
              {actual === undefined ? null : (
                <>
                  {' '}
                  Found: <code>{shownValue(actual)}</code>.
                </>
              )}
              {expected === undefined ? null : (
                <>
                  {' '}
                  Expected: <code>{shownValue(expected)}</code>.
                </>
              )}{' '}
              <span class="hint">
                ({violation.path || 'the folder'}
                {violation.line === undefined ? '' : `, line ${violation.line}`})
              </span>
              {here && element ? (
                <button
                  type="button"
                  class="link-button"
                  onClick={() => screen.select(element, { focusTree: true })}
                >
                  Select the element
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <NoticeAt model={model} place="problems" />
    </section>
  );
}
