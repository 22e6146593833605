import { signal } from '@preact/signals';
import type { ElementHandle, MediumRef, v1 } from '@galley/core';
import type { Client } from '../library.js';
import { EditorActions } from './actions.js';
import { library } from '../library.js';
import type { Device } from './devices.js';
import { devicesFor } from './devices.js';
import type { PreviewFrame } from './frame.js';
import type { HeldKey } from './held-keys.js';
import { EditorModel } from './model.js';

export interface PageInfo {
  readonly id: string;
  readonly file: string;
  readonly title: string;
  readonly revision: number;
  readonly unsaved_draft?: { readonly by: { readonly name: string } } | null;
}

/** A draft started on an older saved revision of the page than the one now saved. */
export interface StaleDraft {
  readonly base: number;
  readonly current: number;
  /** What changed since, from the project's history. */
  readonly since: readonly string[];
}

export interface ScreenSetup {
  readonly client: Client;
  readonly projectId: string;
  readonly projectTitle: string;
  readonly medium: MediumRef;
  readonly page: PageInfo;
  readonly pages: readonly PageInfo[];
  readonly previewAction: string;
  /** The preview folder, with its pass. */
  readonly previewBase: string;
  readonly csrfToken: string;
  readonly accountName: string;
  /** The person's role in the project: a viewer never edits. */
  readonly role: v1.Role;
}

/**
 * Everything the editor's parts share: the state (model), what a person can do (actions), the
 * preview frame, and the screen's own view state (device, which panel, the overlay's tick).
 */
export class EditorScreen {
  readonly model = new EditorModel();
  readonly actions = new EditorActions(this.model);
  readonly devices: readonly Device[];
  readonly device = signal<Device>(null as unknown as Device);
  /** Bumped whenever the preview scrolled, resized or was redrawn: the overlay follows. */
  readonly tick = signal(0);
  /** The tree row to focus after the next render (keyboard navigation, after an action). */
  readonly focusRow = signal<ElementHandle | null>(null);
  readonly collapsed = signal<ReadonlySet<ElementHandle>>(new Set());
  frame: PreviewFrame | null = null;
  /** Saves the draft (set by the editor's lifecycle, which knows the folder and the server). */
  save: () => Promise<void> = () => Promise.resolve();
  /** Status line of the lock: who edits, since when. */
  readonly lockLine = signal<string>('Taking the lock…');
  /** Takes the lock over, offered beside the lock line when its holder left unsaved changes. */
  readonly takeOver = signal<(() => void) | null>(null);
  /** The session has ended: the lock line links to the login, which brings the person back. */
  readonly sessionEnded = signal(false);
  /** A stale draft found on opening: what the person chooses to do with it. */
  readonly stale = signal<StaleDraft | null>(null);

  constructor(readonly setup: ScreenSetup) {
    this.devices = devicesFor(setup.medium);
    this.device.value = this.devices[0]!;
  }

  /**
   * Draws the shown document into the preview, unless this version is drawn already. The canvas
   * does it after every change; an action that goes on in the preview at once (editing in place
   * right after an insert) does it first, so the new element is there.
   */
  drawFrame(): void {
    const shown = this.model.shown.peek();
    const viewing = this.model.viewing.peek();
    if (!shown || !this.frame) return;
    // A saved revision may have another head (its own style sheets): it loads as a document.
    const key = viewing ? `revision ${viewing.revision}` : 'page';
    this.frame.show(key, shown.version ?? 0, shown.elements);
  }

  /**
   * Edits the element's text in the preview (double-click, or Enter on the selection); `typed`:
   * keys typed before it could be edited, typed into it first (see held-keys.ts).
   */
  startEditing(handle: ElementHandle, typed: readonly HeldKey[] = []): void {
    if (!this.model.editable.peek()) {
      this.model.say('This page is read-only here.', 'info', 'canvas');
      return;
    }
    this.select(handle);
    this.drawFrame();
    if (!this.frame?.startEditing(handle)) return;
    this.model.editingText.value = handle;
    this.frame.typeHeld(typed);
  }

  /**
   * After an action, focus never falls to <body>: when the focused element went away (a removed
   * row, a closed panel), the tree takes it back on the selected row.
   */
  keepFocus(): void {
    // After the screen has drawn the action's result (a button that turned disabled, or a row
    // that went away, drops the focus only then), and after the tree's own focusing.
    setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) return;
      this.focusRow.value = this.model.selection.peek();
      if (this.model.selection.peek()) return;
      // Nothing selected: the tree's one Tab stop (its first drawn row, or the empty tree).
      document
        .querySelector<HTMLElement>('[role="tree"] [tabindex="0"], [role="tree"][tabindex="0"]')
        ?.focus();
    }, 50);
  }

  /** Shows a saved revision read-only in place of the draft (null: back to the draft). */
  viewRevision(revision: { revision: number; html: string } | null): void {
    const { model } = this;
    if (!revision) {
      model.viewing.value = null;
    } else {
      const opened = library().Draft.open(revision.html);
      if (!opened.ok) return model.say('This revision cannot be shown.', 'error', 'history');
      model.viewing.value = { doc: opened.draft, revision: revision.revision };
    }
    model.changed();
  }

  /** Chooses an element: the tree and the preview show it, and actions aim at it. */
  select(handle: ElementHandle | null, options: { reveal?: boolean; focusTree?: boolean } = {}) {
    this.model.selection.value = handle;
    if (handle && options.reveal !== false) this.frame?.reveal(handle);
    if (handle && options.focusTree) this.focusRow.value = handle;
  }
}
