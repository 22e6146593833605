import type { DraftError, Operation, OperationKind, OutlineEntry } from '@galley/core';
import { referenceOf } from './editor-outline.js';

const kinds: readonly OperationKind[] = [
  'insert',
  'move',
  'remove',
  'duplicate',
  'replace',
  'swap',
];
const fields = ['target', 'parent', 'before', 'html'] as const;

/**
 * The operation a form describes: its kind and its non-empty fields, as typed. The local draft
 * engine validates it (and refuses it with the field at fault) exactly as the server would.
 */
export function operationOf(form: HTMLFormElement): Operation | null {
  const kind = form.dataset.kind as OperationKind | undefined;
  if (!kind || !kinds.includes(kind)) return null;
  const operation: Record<string, string> = { kind };
  for (const name of fields) {
    const control = form.elements.namedItem(name);
    if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)) continue;
    const value = name === 'html' ? control.value : control.value.trim();
    if (value !== '' || name === 'html') operation[name] = value;
  }
  return operation as unknown as Operation;
}

/**
 * Marks the fields a refusal names (`operation.target` → the form's `target`) as invalid; the
 * marks of an earlier refusal go, in whichever form they were.
 */
export function markRefusal(form: HTMLFormElement, errors: readonly DraftError[]): void {
  clearMarks(form.ownerDocument);
  for (const error of errors) {
    const name = error.field?.replace(/^operation\./, '').split('.')[0];
    const control = name ? form.elements.namedItem(name) : null;
    if (control instanceof HTMLElement) control.setAttribute('aria-invalid', 'true');
  }
}

/** Drops every operation form's marks: a refusal is about the draft as it was then. */
export function clearMarks(root: ParentNode): void {
  for (const control of root.querySelectorAll('form[data-kind] [aria-invalid]'))
    control.removeAttribute('aria-invalid');
}

/** A chosen outline entry becomes every form's element and the insert form's parent. */
export function useSelection(root: ParentNode, entry: OutlineEntry): void {
  const reference = referenceOf(entry);
  for (const input of root.querySelectorAll<HTMLInputElement>(
    'input.ref-target, #op-insert-parent',
  ))
    input.value = reference;
}
