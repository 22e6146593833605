import type { ChildNode, Element } from 'domhandler';
import type { z } from 'zod';
import { forEachElement, isElement } from './dom.js';
import type { DraftError, Refused } from './errors.js';
import { draftError, refused } from './errors.js';
import { serializeHtml } from './html.js';
import type { Change } from './operations.js';
import { plan } from './operations.js';
import type { Outline } from './outline.js';
import { depthsBelow, OutlineBuilder } from './outline.js';
import { IndexedPage } from './page.js';
import type { OperationResult } from './schema.js';
import { DraftLog, Operation } from './schema.js';
import { elementId } from './attributes.js';
import { ElementView } from './element-view.js';

/** What `rebuildGradually` does between two pauses: HTML characters read, operations replayed. */
const GRADUAL_CHARACTERS = 64 * 1024;
const GRADUAL_OPERATIONS = 16;

export type OpenResult = { readonly ok: true; readonly draft: Draft } | Refused;
export type ChangeResult = { readonly ok: true; readonly result: OperationResult } | Refused;

/**
 * An HTML page being edited by operations: parsed once, changed in place, every change undoable.
 * Nothing here throws on bad input: refusals are values with a stable code and the field at fault.
 */
export class Draft {
  private readonly done: Change[] = [];
  private readonly undone: Change[] = [];
  private changes = 0;
  private readonly created = { elements: 0, characters: 0 };
  private readonly outlines: OutlineBuilder;
  private cachedOutline: Outline | undefined;
  private cachedDepths: readonly number[] | undefined;
  /** Single elements of this draft, held by handle across its changes (for a screen). */
  readonly elements: ElementView;

  private constructor(private readonly page: IndexedPage) {
    this.outlines = new OutlineBuilder(page);
    this.elements = new ElementView(page);
  }

  /**
   * Opens a draft on a page; refused for a page nested deeper than 512 levels (`too_deep`, as the
   * `pages` check) and for a frameset document, which has no body (`no_body`).
   */
  static open(html: string): OpenResult {
    const page = IndexedPage.parse(html);
    if (typeof page === 'string') return refused(draftError(page, 'html'));
    return { ok: true, draft: new Draft(page) };
  }

  /** The draft that `log` describes, rebuilt on the HTML it was opened on (undo and redo state included). */
  static rebuild(baseHtml: string, log: DraftLog): OpenResult {
    const steps = Draft.rebuildSteps(baseHtml, log, Infinity, Infinity);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `rebuild` a piece at a time, awaiting `pause()` after every 64 KiB of HTML read and every 16
   * operations replayed: a server rebuilding a large draft lets other requests run meanwhile.
   * The draft is the very one `rebuild` makes.
   */
  static async rebuildGradually(
    baseHtml: string,
    log: DraftLog,
    pause: () => Promise<void>,
  ): Promise<OpenResult> {
    const steps = Draft.rebuildSteps(baseHtml, log, GRADUAL_CHARACTERS, GRADUAL_OPERATIONS);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await pause();
    }
  }

  /** Rebuilds, yielding after every `characters` of HTML read and every `operations` replayed. */
  private static *rebuildSteps(
    baseHtml: string,
    log: DraftLog,
    characters: number,
    operations: number,
  ): Generator<void, OpenResult, void> {
    const parsed = DraftLog.safeParse(log);
    if (!parsed.success) return refused(...issuesToErrors(parsed.error, 'invalid_log', 'log'));
    const page = yield* IndexedPage.parseSteps(baseHtml, characters);
    if (typeof page === 'string') return refused(draftError(page, 'html'));
    const draft = new Draft(page);
    const { applied, sequence } = parsed.data;
    for (const [index, operation] of parsed.data.operations.entries()) {
      const replayed = draft.apply(operation);
      if (!replayed.ok) {
        const why = replayed.errors.map((error) => `${error.code}: ${error.message}`).join('; ');
        return refused(
          draftError('invalid_log', `log.operations.${index}`, `Replay refused: ${why}`),
        );
      }
      if ((index + 1) % operations === 0) yield;
    }
    for (let i = applied; i < parsed.data.operations.length; i++) draft.undo();
    draft.changes = sequence;
    return { ok: true, draft };
  }

  /** Counts every change (operation, undo, redo); a server can derive its draft token from it. */
  get sequence(): number {
    return this.changes;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** How many operations `undo` can take back here, one after another. */
  get undoable(): number {
    return this.done.length;
  }

  /** The operations kept for undo and redo: the history holds each, with what it took out. */
  get heldChanges(): number {
    return this.done.length + this.undone.length;
  }

  /**
   * The elements, and the characters of text and comments, that the held operations created
   * (inserted, replaced in, swapped in, duplicated): the page or the history keeps each in
   * memory, so a draft grows with its history.
   */
  get createdContent(): Readonly<CreatedContent> {
    return this.created;
  }

  /**
   * Forgets the `count` oldest operations in effect, as a server does once it has stored the
   * page they made: they can no longer be undone here (nor appear in `log`), and the history no
   * longer holds what they took out or brought in.
   */
  forgetOldest(count: number): void {
    this.done.splice(0, count);
    this.created.elements = 0;
    this.created.characters = 0;
    for (const change of [...this.done, ...this.undone]) countCreated(change, this.created, 1);
  }

  /** Applies one operation; a refused operation changes nothing. A new operation drops the redo stack. */
  apply(operation: Operation): ChangeResult {
    const valid = Operation.safeParse(operation);
    if (!valid.success)
      return refused(...issuesToErrors(valid.error, 'invalid_operation', 'operation'));
    const planned = plan(this.page, valid.data);
    if (!planned.ok) return refused(...planned.errors);
    const { change } = planned;
    this.runForward(change);
    this.done.push(change);
    countCreated(change, this.created, 1);
    for (const dropped of this.undone) countCreated(dropped, this.created, -1);
    this.undone.length = 0;
    return this.changed(change.focus);
  }

  undo(): ChangeResult {
    const change = this.done.pop();
    if (!change) return refused(draftError('nothing_to_undo', null));
    for (let i = change.steps.length - 1; i >= 0; i--) {
      const step = change.steps[i]!;
      if (step.kind === 'in') this.page.detach(step.group);
      else this.page.attach(step.group, step.place!);
    }
    this.undone.push(change);
    return this.changed(change.undoFocus);
  }

  redo(): ChangeResult {
    const change = this.undone.pop();
    if (!change) return refused(draftError('nothing_to_redo', null));
    this.runForward(change);
    this.done.push(change);
    return this.changed(change.focus);
  }

  /** The outline of this version, built once and then handed out as is (treat it as read-only). */
  outline(): Outline {
    return (this.cachedOutline ??= this.outlines.build());
  }

  /**
   * How deep each outline entry sits below <body> (0 for a child of <body>), in the outline's
   * order: the page's nesting, read from the draft's own tree, so a browser showing the outline
   * never builds a DOM from the page.
   */
  outlineDepths(): readonly number[] {
    return (this.cachedDepths ??= depthsBelow(this.page.body));
  }

  html(): string {
    return serializeHtml(this.page.document);
  }

  /** Plain JSON: with the base HTML, all `Draft.rebuild` needs. */
  log(): DraftLog {
    return {
      format: 1,
      operations: [...this.done, ...this.undone.slice().reverse()].map((change) => ({
        ...change.operation,
      })),
      applied: this.done.length,
      sequence: this.changes,
    };
  }

  private runForward(change: Change): void {
    for (const step of change.steps) {
      if (step.kind === 'in') this.page.attach(step.group, step.place!);
      else step.place = this.page.detach(step.group);
    }
  }

  private changed(focus: readonly Element[]): ChangeResult {
    this.changes += 1;
    this.cachedOutline = undefined;
    this.cachedDepths = undefined;
    const ids: string[] = [];
    forEachElement(focus, (element) => {
      const id = elementId(element);
      if (id !== null) ids.push(id);
    });
    const nodes = focus.map((element) => `@${this.page.numberOf(element)}`);
    return { ok: true, result: { nodes, ids } };
  }
}

export interface CreatedContent {
  elements: number;
  characters: number;
}

/** Adds (sign 1) or takes away (-1) what a change brought in; a move only relocates an element. */
function countCreated(change: Change, into: CreatedContent, sign: 1 | -1): void {
  if (change.operation.kind === 'move') return;
  const visit = (nodes: readonly ChildNode[]): void => {
    for (const node of nodes) {
      if (isElement(node)) {
        into.elements += sign;
        visit(node.children);
      } else if ('data' in node) {
        into.characters += sign * node.data.length;
      }
    }
  };
  for (const step of change.steps) if (step.kind === 'in') visit(step.group.nodes);
}

/** One refusal per zod issue; an unknown field is reported at its own path. */
function issuesToErrors(
  error: z.ZodError,
  code: 'invalid_operation' | 'invalid_log',
  root: string,
): DraftError[] {
  return error.issues.flatMap((issue) => {
    const at = [root, ...issue.path.map(String)];
    if (issue.code !== 'unrecognized_keys') return [draftError(code, at.join('.'), issue.message)];
    return issue.keys.map((key) =>
      draftError(code, [...at, key].join('.'), `Unknown field \`${key}\`.`),
    );
  });
}
