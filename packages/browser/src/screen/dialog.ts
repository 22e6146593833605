// Confirmation before an act that cannot be taken back: the ARIA "Dialog (Modal)" pattern with
// the native <dialog> (showModal makes the rest of the page inert and Escape cancels).
import { h } from './dom.js';
import type { Child } from './dom.js';

export interface Question {
  /** The dialog's heading: what is about to happen ("Revoke token glly_abc…?"). */
  readonly title: string;
  /** What it means, in a sentence or two. */
  readonly body: readonly Child[];
  /** The confirming button, which names the act ("Revoke token"). */
  readonly action: string;
}

let asked = 0;

/**
 * Asks in a modal dialog; resolves true only when the person presses the act's button. The focus
 * starts on Cancel (the harmless answer) and goes back to `trigger` (by default the element that
 * had it before).
 */
export function ask(
  question: Question,
  trigger: HTMLElement | null = document.activeElement instanceof HTMLElement
    ? document.activeElement
    : null,
): Promise<boolean> {
  const id = `ask-${++asked}`;
  const cancel = h('button', { type: 'button', autofocus: true }, 'Cancel');
  const act = h('button', { type: 'button', class: 'act' }, question.action);
  const dialog = h(
    'dialog',
    { class: 'ask', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-body` },
    h('h2', { id: `${id}-title` }, question.title),
    h('div', { id: `${id}-body` }, question.body),
    h('p', { class: 'toolbar' }, cancel, act),
  );
  cancel.addEventListener('click', () => dialog.close('cancel'));
  act.addEventListener('click', () => dialog.close('act'));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (trigger?.isConnected) trigger.focus();
      resolve(dialog.returnValue === 'act');
    });
    dialog.showModal();
  });
}
