// Shared by the re-apply tests: drafts driven to a result, and elements found by what they are.
import { expect } from 'vitest';
import type { Operation } from '@galley/core';
import { Draft } from '@galley/core';
import * as galley from '@galley/browser';
import type { ReapplyPlan } from '../src/screen/editor/reapply.js';

// The screen reads the library from the global `Galley` (galley.min.js); so do these tests.
(globalThis as unknown as { Galley: typeof galley }).Galley = galley;

export function open(html: string): Draft {
  const opened = Draft.open(html);
  if (!opened.ok) throw new Error(`cannot open: ${JSON.stringify(opened.errors)}`);
  return opened.draft;
}

/** The page after `operations`, each of which must apply. */
export function applied(html: string, operations: readonly Operation[]): string {
  const draft = open(html);
  operations.forEach((operation, index) => {
    const result = draft.apply(operation);
    expect(result, `operation ${index}: ${JSON.stringify(operation)}`).toMatchObject({ ok: true });
  });
  return draft.html();
}

/** The newer revision with the plan applied, every step accepted. */
export const result = (current: string, plan: ReapplyPlan) => applied(current, plan.operations);

/** The outline number of the first element with this tag and outline text. */
export function numberOf(draft: Draft, tag: string, text: string): number {
  const entry = draft.outline().find((e) => e.tag === tag && e.text === text);
  if (!entry) throw new Error(`no <${tag}> “${text}”`);
  return entry.node;
}

/** `@n` of the first element with this tag and text, in the page as it is. */
export const at = (draft: Draft, tag: string, text: string) => `@${numberOf(draft, tag, text)}`;

/** The numbers of the element children of element `number` (0 for <body>). */
export function childrenOf(draft: Draft, number: number): number[] {
  const depths = draft.outlineDepths();
  const depth = number === 0 ? -1 : depths[number - 1]!;
  const children: number[] = [];
  for (let n = number + 1; n <= depths.length && depths[n - 1]! > depth; n++)
    if (depths[n - 1] === depth + 1) children.push(n);
  return children;
}

/** One step of a person's editing: an operation, written against the page as it is then. */
export type Step = Operation | 'undo' | ((draft: Draft) => Operation);

function run(draft: Draft, steps: readonly Step[]): void {
  for (const step of steps) {
    const done =
      step === 'undo' ? draft.undo() : draft.apply(typeof step === 'function' ? step(draft) : step);
    expect(done, typeof step === 'function' ? String(step) : JSON.stringify(step)).toMatchObject({
      ok: true,
    });
  }
}

/**
 * Runs the steps on a draft the way a person's editor does, and returns the operations in
 * effect (undone ones left out), each with references valid at its step.
 */
export function logOf(html: string, steps: readonly Step[]): Operation[] {
  const draft = open(html);
  run(draft, steps);
  const log = draft.log();
  return log.operations.slice(0, log.applied);
}

/** The page after the same steps made by hand on it (references found on this page). */
export function byHand(html: string, steps: readonly Step[]): string {
  const draft = open(html);
  run(draft, steps);
  return draft.html();
}
