import type { ElementHandle, ElementView, Operation, OperationResult } from '@galley/core';
import type { Failure, Outcome } from '../../result.js';
import type { SyncedDraft } from '../../synced-draft.js';
import type { EditorModel, Place } from './model.js';
import { sayFailure } from './words.js';

/** Where an insert goes, relative to the selection. */
export type Placement = 'before' | 'after' | 'inside';

interface OperateOptions {
  /** The element to select once shown (else the first the result names). */
  select?: (result: OperationResult, view: ElementView) => ElementHandle | null;
  /** Waits for a change still on its way instead of refusing: for an aim fixed beforehand. */
  queued?: boolean;
  /** Runs once, when the change is first shown with an element selected (before the answer). */
  shown?: (selected: ElementHandle) => void;
}

/** Shows a result on the screen; `shows` tells whether it showed this view of the draft. */
type Shower = ((result: OperationResult) => void) & { shows(view: ElementView): boolean };

/** A reference was asked for an element that has left the page since it was chosen. */
class Gone extends Error {}

/**
 * What a person can do to the draft. Every operation is built at the moment it is sent, from the
 * draft of that moment (`@n` of that version, sent with its token), and one runs at a time: a
 * second press while one is on its way is not queued to aim at whatever is selected later.
 */
export class EditorActions {
  /** Runs after every change of the draft (the local checks, the page's draft markers). */
  onChange: () => void = () => undefined;

  /** The change on its way to the server, which an undo or a redo pressed meanwhile waits for. */
  private pending: Promise<unknown> = Promise.resolve();
  /** Whether the last change sent was refused (its failure is on show). */
  private lastFailed = false;

  constructor(private readonly model: EditorModel) {}

  private async operate(
    place: Place,
    build: (ref: (handle: ElementHandle) => string, view: ElementView) => Operation | string,
    options: OperateOptions = {},
  ): Promise<boolean> {
    const { model } = this;
    // Chosen while the change it waited for was on its way, and that one was refused: its refusal
    // is on show, and this one does not run on a draft other than the one the person chose it on.
    if (options.queued && (await this.afterPending())) return false;
    const draft = model.draft.peek();
    if (!draft || !model.editable.peek()) return false;
    if (model.busy.peek()) {
      model.say('Wait a moment: the last change is still on its way.', 'info', place);
      return false;
    }
    const view = draft.elements;
    const ref = (handle: ElementHandle) => {
      const number = view.numberOf(handle);
      if (number === null) throw new Gone();
      return `@${number}`;
    };
    let operation: Operation | string;
    try {
      operation = build(ref, view);
    } catch (error) {
      if (!(error instanceof Gone)) throw error;
      operation = 'That element is no longer on the page.';
    }
    if (typeof operation === 'string') {
      model.say(operation, 'info', place);
      return false;
    }
    model.busy.value = operation.kind;
    const selected = model.selectionPlace();
    const show = this.shower(draft, options);
    const answer = draft.apply(operation, show);
    this.pending = answer;
    const applied = await answer;
    model.busy.value = null;
    const settled = this.settle(draft, applied, place, show);
    this.lastFailed = !settled;
    // Refused: the draft is as it was before the change, and so is the selection.
    if (!settled) model.selectAgain(selected);
    return settled;
  }

  /**
   * Shows a result: the draft as it now is, the selection on what the result names. Called with
   * the local result at once, and again with the server's when the draft had to reload.
   */
  private shower(draft: SyncedDraft, { select, shown }: OperateOptions = {}): Shower {
    let shownView: ElementView | null = null;
    let told = false;
    const show = (result: OperationResult) => {
      const view = draft.elements;
      shownView = view;
      const first = result.nodes[0];
      const chosen = select
        ? select(result, view)
        : first
          ? (view.at(Number(first.slice(1))) ?? null)
          : null;
      this.model.changed();
      if (!chosen) return;
      this.model.selection.value = chosen;
      if (shown && !told) shown(chosen);
      told = true;
    };
    return Object.assign(show, { shows: (view: ElementView) => view === shownView });
  }

  /** After the server's answer: shown already, unless the draft reloaded or it failed. */
  private settle(
    draft: SyncedDraft,
    outcome: Outcome<OperationResult>,
    place: Place,
    show: Shower,
  ): boolean {
    const { model } = this;
    if (!outcome.ok) {
      this.failed(outcome.failure, place);
      model.changed();
      model.answered.value += 1;
      return false;
    }
    if (!show.shows(draft.elements)) show(outcome.value);
    model.answered.value += 1;
    model.notice.value = null;
    this.onChange();
    return true;
  }

  private failed(failure: Failure, place: Place): void {
    this.model.say(sayFailure(failure), 'error', place);
    if (failure.kind === 'http' && failure.status === 423) this.onLockLost();
  }

  /** Another client took the lock: the editor finds out who, and turns read-only. */
  onLockLost: () => void = () => undefined;

  private selected(place: Place): ElementHandle | string {
    return this.model.selection.peek() ?? (place === 'palette' ? '' : 'Choose an element first.');
  }

  remove(place: Place = 'toolbar'): Promise<boolean> {
    let neighbour: ElementHandle | null = null;
    return this.operate(
      place,
      (ref, view) => {
        const target = this.selected(place);
        if (typeof target === 'string') return target;
        if (view.numberOf(target) === 0) return 'The page body itself cannot be removed.';
        const parent = view.parentOf(target);
        neighbour =
          view.nextOf(target) ??
          view.previousOf(target) ??
          (parent && view.numberOf(parent) !== 0 ? parent : null);
        return { kind: 'remove', target: ref(target) };
      },
      { select: () => neighbour },
    );
  }

  duplicate(place: Place = 'toolbar'): Promise<boolean> {
    return this.operate(place, (ref) => {
      const target = this.selected(place);
      return typeof target === 'string' ? target : { kind: 'duplicate', target: ref(target) };
    });
  }

  /** Alt+Up / Alt+Down: before the previous sibling, or after the next one. */
  shift(direction: 'up' | 'down', place: Place = 'toolbar'): Promise<boolean> {
    return this.operate(place, (ref, view) => {
      const target = this.selected(place);
      if (typeof target === 'string') return target;
      const parent = view.parentOf(target);
      if (!parent) return 'The page body itself cannot be moved.';
      if (direction === 'up') {
        const previous = view.previousOf(target);
        if (!previous) return 'It is already the first in its parent.';
        return { kind: 'move', target: ref(target), parent: ref(parent), before: ref(previous) };
      }
      const next = view.nextOf(target);
      if (!next) return 'It is already the last in its parent.';
      const after = view.nextOf(next);
      return after
        ? { kind: 'move', target: ref(target), parent: ref(parent), before: ref(after) }
        : { kind: 'move', target: ref(target), parent: ref(parent) };
    });
  }

  /** Into the previous sibling, at its end. */
  indent(place: Place = 'toolbar'): Promise<boolean> {
    return this.operate(place, (ref, view) => {
      const target = this.selected(place);
      if (typeof target === 'string') return target;
      const previous = view.previousOf(target);
      if (!previous) return 'There is no element before it to go into.';
      if (!view.canHoldElements(previous))
        return `The element before it (<${view.tagOf(previous)}>) cannot hold other elements.`;
      return { kind: 'move', target: ref(target), parent: ref(previous) };
    });
  }

  /** Out of its parent, right after it. */
  outdent(place: Place = 'toolbar'): Promise<boolean> {
    return this.operate(place, (ref, view) => {
      const target = this.selected(place);
      if (typeof target === 'string') return target;
      const parent = view.parentOf(target);
      const outer = parent ? view.parentOf(parent) : null;
      if (!parent || !outer) return 'It is already at the top level of the page.';
      const after = view.nextOf(parent);
      return after
        ? { kind: 'move', target: ref(target), parent: ref(outer), before: ref(after) }
        : { kind: 'move', target: ref(target), parent: ref(outer) };
    });
  }

  /** A drop in the tree or the preview: `target` goes before `anchor`, after it, or inside it. */
  moveTo(target: ElementHandle, anchor: ElementHandle, where: Placement, place: Place) {
    return this.operate(place, (ref, view) => {
      const placed = placeAt(view, anchor, where);
      if (typeof placed === 'string') return placed;
      const { parent, before } = placed;
      if (before === target) return 'It is already there.';
      return before
        ? { kind: 'move', target: ref(target), parent: ref(parent), before: ref(before) }
        : { kind: 'move', target: ref(target), parent: ref(parent) };
    });
  }

  /** `shown` runs as soon as the new element is shown, before the server's answer. */
  insert(
    html: string,
    where: Placement,
    shown?: (inserted: ElementHandle) => void,
  ): Promise<boolean> {
    return this.operate(
      'palette',
      (ref, view) => {
        const anchor = this.model.selection.peek() ?? view.at(0)!;
        const placed = placeAt(view, anchor, view.numberOf(anchor) === 0 ? 'inside' : where);
        if (typeof placed === 'string') return placed;
        const { parent, before } = placed;
        return before
          ? { kind: 'insert', parent: ref(parent), before: ref(before), html }
          : { kind: 'insert', parent: ref(parent), html };
      },
      { queued: this.waitsToInsert(), ...(shown ? { shown } : {}) },
    );
  }

  /**
   * An insert now would wait for the change on its way: a block chosen while the text just edited
   * in place is on its way waits for it (the click that chose it ended that editing); any other
   * change on its way refuses it.
   */
  waitsToInsert(): boolean {
    return this.model.busy.peek() === 'swap';
  }

  /** The attribute panel: the element replaced by itself with changed attributes. */
  setAttributes(changes: Readonly<Record<string, string | null>>): Promise<boolean> {
    return this.operate('inspector', (ref, view) => {
      const target = this.selected('inspector');
      if (typeof target === 'string') return target;
      if (view.numberOf(target) === 0)
        return 'The attributes of the page body cannot be changed here.';
      return { kind: 'replace', target: ref(target), html: view.outerHtmlWith(target, changes) };
    });
  }

  /** The element's content, as edited in place (Enter or leaving the element commits). */
  setContent(target: ElementHandle, html: string): Promise<boolean> {
    // Its element was fixed when the editing began, so the commit can wait for a change made just
    // before and still on its way, instead of losing what was typed.
    return this.operate('canvas', (ref) => ({ kind: 'swap', target: ref(target), html }), {
      queued: true,
    });
  }

  replaceWith(html: string): Promise<boolean> {
    return this.operate('inspector', (ref) => {
      const target = this.selected('inspector');
      return typeof target === 'string' ? target : { kind: 'replace', target: ref(target), html };
    });
  }

  /**
   * Waits for the changes on their way (bounded: one that never settles must not hold this);
   * answers whether it waited and the last of them was refused.
   */
  private async afterPending(): Promise<boolean> {
    let waited = false;
    for (let turn = 0; this.model.busy.peek() && turn < 8; turn++) {
      waited = true;
      await this.pending.catch(() => undefined);
    }
    return waited && this.lastFailed;
  }

  /**
   * Undoes or redoes the last change. The change before it is shown at once, so a quick Ctrl+Z can
   * come while that change is still on its way: it waits for it (in order, if pressed again), as
   * it aims at no element that could change meanwhile.
   */
  async step(direction: 'undo' | 'redo'): Promise<boolean> {
    const { model } = this;
    // The change it waited for was refused: an undo now would undo the one before it instead.
    if (await this.afterPending()) return false;
    if (model.busy.peek()) return false;
    const draft = model.draft.peek();
    if (!draft || !model.editable.peek()) return false;
    if (direction === 'undo' ? !draft.canUndo : !draft.canRedo) {
      model.say(
        direction === 'undo' ? 'There is nothing to undo.' : 'There is nothing to redo.',
        'info',
        'toolbar',
      );
      return false;
    }
    model.busy.value = direction;
    const show = this.shower(draft);
    const answer = direction === 'undo' ? draft.undo(show) : draft.redo(show);
    this.pending = answer;
    const moved = await answer;
    model.busy.value = null;
    const done = this.settle(draft, moved, 'toolbar', show);
    this.lastFailed = !done;
    if (done) model.say(direction === 'undo' ? 'Undone.' : 'Redone.', 'ok', 'toolbar');
    return done;
  }
}

/** The parent and the child before which something goes, `where` the anchor. */
function placeAt(
  view: ElementView,
  anchor: ElementHandle,
  where: Placement,
): { parent: ElementHandle; before: ElementHandle | null } | string {
  if (where === 'inside') {
    if (!view.canHoldElements(anchor))
      return `<${view.tagOf(anchor)}> cannot hold other elements: choose before or after it.`;
    return { parent: anchor, before: null };
  }
  const parent = view.parentOf(anchor);
  if (!parent) return 'Nothing can go beside the page body: choose inside it.';
  return { parent, before: where === 'before' ? anchor : view.nextOf(anchor) };
}
