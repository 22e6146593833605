import { EDITING_ROOT, editingPaths, pathOf } from '@galley/core';
import type { v1 } from '@galley/core';
import { library } from '../library.js';
import type { EditorScreen } from './screen.js';

export interface LiveEvents {
  /**
   * The lock was released (`free`) or taken by someone; `leftUnsaved` names a holder that let it
   * go with unsaved changes (see v1.LockEventData).
   */
  lockChanged(free: boolean, leftUnsaved: string | null): void;
  /** A new revision was saved. */
  saved(): void | Promise<void>;
}

interface DraftEvent {
  readonly html: string;
  readonly by?: { readonly name: string };
}

/**
 * While another client edits, the page's events stream (server-sent events) brings its draft as
 * it changes: the read-only view shows each change without a reload. The browser's EventSource
 * reconnects by itself after a dropped connection.
 */
export class LiveView {
  private source: EventSource | null = null;

  constructor(
    private readonly screen: EditorScreen,
    private readonly events: LiveEvents,
  ) {}

  open(pageId: string): void {
    if (this.source) return;
    const source = new EventSource(
      `${EDITING_ROOT}${pathOf(editingPaths.pageEvents, { page: pageId })}`,
    );
    this.source = source;
    source.addEventListener('draft', (event) => this.draft(event as MessageEvent<string>));
    source.addEventListener('lock', (event) => {
      const data = parse<v1.LockEventData>((event as MessageEvent<string>).data);
      if (data) this.events.lockChanged(data.lock === null, data.left_unsaved?.name ?? null);
    });
    source.addEventListener('saved', () => void this.events.saved());
  }

  close(): void {
    this.source?.close();
    this.source = null;
  }

  private draft(event: MessageEvent<string>): void {
    const { model } = this.screen;
    if (model.draft.peek()) return;
    const data = parse<DraftEvent>(event.data);
    if (!data || typeof data.html !== 'string') return;
    const opened = library().Draft.open(data.html);
    if (!opened.ok) return;
    model.readOnly.value = { doc: opened.draft };
    model.changed();
  }
}

function parse<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
