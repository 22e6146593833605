import { batch, computed, signal } from '@preact/signals';
import type {
  CheckReport,
  Draft,
  ElementHandle,
  ElementView,
  Folder,
  Outline,
  Violation,
} from '@galley/core';
import type { SyncedDraft } from '../../synced-draft.js';
import type { LockState } from '../editor-lock.js';

/** What the canvas and the tree show: the draft, or a page read-only. */
export interface Shown {
  /** Which version of the document this is (the model's counter). */
  readonly version?: number;
  readonly elements: ElementView;
  outline(): Outline;
  outlineDepths(): readonly number[];
  html(): string;
}

/** Where a message belongs: next to the part of the screen whose action it answers. */
export type Place =
  'toolbar' | 'inspector' | 'palette' | 'canvas' | 'tree' | 'problems' | 'history';

export interface Notice {
  readonly text: string;
  readonly tone: 'ok' | 'error' | 'info';
  readonly place: Place;
}

/** A problem of the local checks (or of the server's 422), held on the element it names. */
export interface LocatedProblem {
  readonly violation: Violation;
  readonly element: ElementHandle | null;
}

/**
 * The editor's state, as signals: the screen's parts read it and re-render by themselves. The
 * selection is an element handle, never a number or an id, so it names the same element through
 * every operation, undo, redo and answer of the server; numbers are computed when a request is
 * sent, from the draft of that moment.
 */
export class EditorModel {
  /** Set only while this tab holds the lock. */
  readonly draft = signal<SyncedDraft | null>(null);
  /** The page shown read-only (saved page, the lock holder's live draft, a saved revision). */
  readonly readOnly = signal<{ doc: Draft } | null>(null);
  /** A saved revision viewed read-only: shown instead of the draft until the person goes back. */
  readonly viewing = signal<{ doc: Draft; revision: number } | null>(null);
  /** Bumped on every change of the shown document (which is changed in place). */
  readonly version = signal(0);
  /**
   * Bumped when the server answered a change already shown: what can be undone or redone (the
   * server's history) may be new, the document is not.
   */
  readonly answered = signal(0);
  readonly selection = signal<ElementHandle | null>(null);
  readonly hover = signal<ElementHandle | null>(null);
  /** An action is on its way: others wait, so a double press never aims at another element. */
  readonly busy = signal<string | null>(null);
  readonly notice = signal<Notice | null>(null);
  readonly problems = signal<readonly LocatedProblem[]>([]);
  /** Problems came from a save attempt (then they stay until fixed), not only from editing. */
  readonly problemsFrom = signal<'editing' | 'save-local' | 'save-server'>('editing');
  readonly lock = signal<LockState | null>(null);
  readonly saving = signal(false);
  readonly conflicted = signal(false);
  readonly folder = signal<Folder | null>(null);
  readonly folderRevision = signal<number | null>(null);
  /** The element being edited in place in the preview. */
  readonly editingText = signal<ElementHandle | null>(null);

  /** A new value for every version: the document is changed in place, the signal must change. */
  readonly shown = computed<Shown | null>(() => {
    const version = this.version.value;
    const doc = this.viewing.value?.doc ?? this.draft.value ?? this.readOnly.value?.doc ?? null;
    return doc ? versionOf(doc, version) : null;
  });
  readonly editable = computed(
    () => this.draft.value !== null && !this.conflicted.value && this.viewing.value === null,
  );
  readonly dirty = computed(() => {
    void this.version.value;
    void this.answered.value;
    return this.draft.value?.canUndo ?? false;
  });

  /** The elements of the shown document: a handle is only good with the view it came from. */
  private lastView: ElementView | null = null;

  /** Call after anything changed the shown document; keeps the selection on its element. */
  changed(): void {
    const shown =
      this.viewing.peek()?.doc ?? this.draft.peek() ?? this.readOnly.peek()?.doc ?? null;
    const view = shown?.elements ?? null;
    batch(() => {
      if (view !== this.lastView) this.carrySelection(this.lastView, view);
      this.lastView = view;
      const selected = this.selection.peek();
      if (selected && view && view.numberOf(selected) === null) this.selection.value = null;
      const hovered = this.hover.peek();
      if (hovered && view && view.numberOf(hovered) === null) this.hover.value = null;
      this.version.value += 1;
    });
  }

  /**
   * Another document came in (a reload after a save, the server's draft, a live update): the
   * selection moves to the element at the same number when it is evidently the same one (same
   * tag and id), and is dropped otherwise rather than land on another element.
   */
  private carrySelection(from: ElementView | null, to: ElementView | null): void {
    const selected = this.selection.peek();
    this.hover.value = null;
    this.selection.value = from && to && selected ? findAgain(to, placeOf(from, selected)) : null;
  }

  /** Where the selection is in the shown document, to find it again in another one. */
  selectionPlace(): ElementPlace | null {
    const view = this.shown.peek()?.elements;
    const selected = this.selection.peek();
    return view && selected ? placeOf(view, selected) : null;
  }

  /** Selects the element at a place taken earlier, or nothing unless it is evidently the same. */
  selectAgain(place: ElementPlace | null): void {
    const view = this.shown.peek()?.elements;
    this.selection.value = view && place ? findAgain(view, place) : null;
  }

  say(text: string, tone: Notice['tone'], place: Place): void {
    this.notice.value = { text, tone, place };
  }

  /** Takes the located problems of a report: each violation of this page on its element. */
  takeProblems(report: Pick<CheckReport, 'violations'> | null, file: string): void {
    const shown = this.shown.peek();
    this.problems.value = (report?.violations ?? []).map((violation) => ({
      violation,
      element: shown && violation.path === file ? resolveReference(shown, violation.element) : null,
    }));
  }
}

function versionOf(doc: Shown, version: number): Shown {
  return {
    version,
    elements: doc.elements,
    outline: () => doc.outline(),
    outlineDepths: () => doc.outlineDepths(),
    html: () => doc.html(),
  };
}

function idOf(view: ElementView, handle: ElementHandle): string | null {
  return view.attributesOf(handle).find(([name]) => name === 'id')?.[1] ?? null;
}

/** An element as another version of the document can find it: its number, tag and id. */
export interface ElementPlace {
  readonly number: number | null;
  readonly tag: string;
  readonly id: string | null;
}

function placeOf(view: ElementView, handle: ElementHandle): ElementPlace {
  return { number: view.numberOf(handle), tag: view.tagOf(handle), id: idOf(view, handle) };
}

function findAgain(view: ElementView, { number, tag, id }: ElementPlace): ElementHandle | null {
  const candidate = number === null ? undefined : view.at(number);
  return candidate !== undefined && view.tagOf(candidate) === tag && idOf(view, candidate) === id
    ? candidate
    : null;
}

/** The element a violation's `#id` or `@n` names in the shown version, read right now. */
export function resolveReference(
  shown: Shown,
  reference: string | undefined,
): ElementHandle | null {
  if (!reference) return null;
  if (reference.startsWith('@')) return shown.elements.at(Number(reference.slice(1))) ?? null;
  if (!reference.startsWith('#')) return null;
  const id = reference.slice(1);
  const entry = shown.outline().find((e) => e.id === id);
  return entry ? (shown.elements.at(entry.node) ?? null) : null;
}
