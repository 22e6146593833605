import type { ElementHandle, ElementView, MarkedHtml } from '@galley/core';
import { h } from '../dom.js';
import { library } from '../library.js';
import type { Placement } from './actions.js';
import { mapShown, patchPreview, renumber } from './frame-patch.js';
import { typeHeld } from './held-keys.js';
import type { HeldKey } from './held-keys.js';
import type { ShownElements } from './frame-patch.js';

/** What the preview tells the editor: all of it happens in the preview, none of it navigates. */
export interface FrameEvents {
  hover(handle: ElementHandle | null): void;
  select(handle: ElementHandle): void;
  edit(handle: ElementHandle): void;
  key(event: KeyboardEvent): void;
  /** A selected element dragged and dropped before, after or inside another. */
  drop(target: ElementHandle, anchor: ElementHandle, where: Placement): void;
  /** The frame scrolled, resized or was drawn again: the overlay must follow. */
  moved(): void;
  /**
   * An in-place edit ended: the new content (null when cancelled or unchanged); `focusLeft` when
   * it ended because the focus went elsewhere (a click out of it), which is then left there.
   */
  edited(target: ElementHandle, html: string | null, focusLeft: boolean): void;
}

export interface FrameSource {
  /** Where the page is posted to: the preview route at the page's own path. */
  readonly action: string;
  readonly csrfToken: string;
  /** A file every project has, under the same pass: whether the pass still opens the files. */
  readonly passProbe: string;
}

/** Marks each element of the preview with its number (`data-galley-n`). */
const marker = () => library().PREVIEW_ATTRIBUTE;

/** Re-post the preview before its pass (15 minutes) runs out, keeping the scroll position. */
const RENEW_AFTER_MS = 10 * 60_000;
const DRAG_START_PX = 6;

/**
 * The preview: a frame sandboxed without scripts (`allow-same-origin` only), so that no script of
 * the page ever runs while this script can read its DOM to tell which element is pointed at. The
 * first view of a document is posted to the preview route (so the page's files load at its own
 * path); each change after that only replaces the body's content, keeping the scroll position.
 */
export class PreviewFrame {
  private frame: HTMLIFrameElement | null = null;
  private loadedKey: string | null = null;
  /** The version of the shown document last drawn (or waiting to be). */
  private drawn = -1;
  private loading = false;
  private pending: { key: string; view: ElementView } | null = null;
  /** Each element of the draft the preview shows, and its own. */
  private shown: ShownElements = { byHandle: new Map(), byElement: new WeakMap() };
  /** The draft's <body>. */
  private body: ElementHandle | null = null;
  /** Marks from this number on are still to be renumbered (in idle time). */
  private renumberFrom = Infinity;
  private renumbering = 0;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private drag: { target: ElementHandle; x: number; y: number; active: boolean } | null = null;
  private dropAt: { anchor: ElementHandle; where: Placement } | null = null;
  private editing: { handle: ElementHandle; element: HTMLElement; before: string } | null = null;
  private probing = false;
  /** A frame is asked for, in which the marks follow what moved (many loads, one redraw). */
  private moveFrame = 0;
  /** The document last asked for, to post again when the pass must be renewed. */
  private last: { key: string; view: ElementView } | null = null;
  /** The elements drawn, and how far in their changes: the next change is drawn in place. */
  private drawnView: ElementView | null = null;
  private drawnMark = 0;
  /**
   * Whether the preview's elements are the draft's, one for one (the browser made up, copied or
   * moved none of them): only then can a change be drawn in place.
   */
  private faithful = false;
  /** The key of the last document loaded, whose scroll position a new load of it keeps. */
  private shownKey: string | null = null;

  constructor(
    private readonly host: HTMLElement,
    private readonly source: FrameSource,
    private readonly events: FrameEvents,
  ) {}

  get document(): Document | null {
    return this.frame?.contentDocument ?? null;
  }

  /**
   * Shows a document: `key` names which document it is (a draft, a saved revision): a new key
   * loads the frame anew, the same key only redraws the body.
   */
  show(key: string, version: number, view: ElementView): void {
    this.last = { key, view };
    if (this.loading || key !== this.loadedKey) {
      this.pending = { key, view };
      this.drawn = version;
      if (!this.loading) this.load();
      return;
    }
    if (version === this.drawn) return;
    this.drawn = version;
    this.redraw(view);
  }

  private load(): void {
    const next = this.pending;
    if (!next) return;
    this.pending = null;
    this.loading = true;
    const marked = next.view.marked('document');
    const mark = next.view.changeMark;
    const scroll = this.scrollPosition();
    const keepScroll = next.key === this.shownKey;
    const name = `preview-${Math.random().toString(36).slice(2)}`;
    // A new frame for each load: its first load replaces its blank start in the session history,
    // where a post into the same frame would add an entry, and Back would then step the frame.
    const frame = h('iframe', {
      name,
      title: 'Preview',
      sandbox: 'allow-same-origin',
      class: 'preview-frame',
    });
    const form = h(
      'form',
      { method: 'post', action: this.source.action, target: name, hidden: true },
      h('input', { type: 'hidden', name: 'csrf_token', value: this.source.csrfToken }),
      h('input', { type: 'hidden', name: 'html', value: marked.html }),
    );
    frame.addEventListener('load', () => {
      const doc = frame.contentDocument;
      // The frame's first load is its blank start; the posted page follows.
      if (!doc || doc.URL === 'about:blank') return;
      form.remove();
      this.loading = false;
      this.loadedKey = next.key;
      this.shownKey = next.key;
      this.wire(doc);
      this.map(doc, marked);
      this.drawnView = next.view;
      this.drawnMark = mark;
      if (keepScroll && scroll) frame.contentWindow?.scrollTo(scroll.x, scroll.y);
      this.events.moved();
      // What changed while the page loaded: the same document only needs its body drawn again.
      const waiting = this.pending;
      if (waiting?.key === this.loadedKey) {
        this.pending = null;
        this.redraw(waiting.view);
      } else if (waiting) this.load();
    });
    this.frame?.remove();
    this.frame = frame;
    this.host.prepend(frame);
    this.host.append(form);
    form.submit();
    clearTimeout(this.renewTimer);
    this.renewTimer = setTimeout(() => {
      const again = this.pending ?? this.last ?? next;
      this.reload(again.key, again.view);
    }, RENEW_AFTER_MS);
  }

  /** Posts the document again (a fresh pass comes with the answer), keeping the scroll. */
  private reload(key: string, view: ElementView): void {
    this.loadedKey = null;
    this.show(key, this.drawn, view);
  }

  private scrollPosition(): { x: number; y: number } | null {
    const win = this.frame?.contentWindow;
    return win ? { x: win.scrollX, y: win.scrollY } : null;
  }

  /**
   * Draws the document's changes since it was last drawn: in place when the preview holds the
   * draft's elements one for one, else the body's content anew. Neither reads a layout, so the
   * browser keeps the scroll position (the old content is never laid out without the new).
   */
  private redraw(view: ElementView): void {
    const doc = this.document;
    if (!doc?.body) return;
    this.stopEditing(false);
    const changes =
      this.faithful && view === this.drawnView ? view.changesSince(this.drawnMark) : null;
    if (changes && patchPreview(doc, this.shown, view, changes))
      this.renumberLater(view, changes.from);
    else {
      const marked = view.marked('body');
      doc.body.innerHTML = marked.html;
      this.map(doc, marked);
    }
    this.drawnView = view;
    this.drawnMark = view.changeMark;
    this.events.moved();
    // And again on the next frame, once the preview has laid out its new content.
    requestAnimationFrame(() => this.events.moved());
  }

  private map(doc: Document, marked: MarkedHtml): void {
    const { faithful, ...shown } = mapShown(doc, marked);
    this.shown = shown;
    this.faithful = faithful;
    this.body = marked.elements[0] ?? null;
    this.renumberFrom = Infinity;
  }

  /** Brings the marks up to date when the browser is idle, a slice at a time. */
  private renumberLater(view: ElementView, from: number): void {
    this.renumberFrom = Math.min(this.renumberFrom, from);
    if (this.renumbering || !Number.isFinite(this.renumberFrom)) return;
    const slice = (deadline: IdleDeadline) => {
      this.renumbering = 0;
      if (view !== this.drawnView || !Number.isFinite(this.renumberFrom)) return;
      const order = view.inOrder();
      const budget = () => deadline.timeRemaining() > 2;
      const reached = renumber(this.shown, order, this.renumberFrom, budget);
      this.renumberFrom = reached >= order.length ? Infinity : reached;
      if (Number.isFinite(this.renumberFrom))
        this.renumbering = requestIdleCallback(slice, { timeout: 1000 });
    };
    this.renumbering = requestIdleCallback(slice, { timeout: 1000 });
  }

  /** The frame's element that shows this element of the draft. */
  elementOf(handle: ElementHandle): HTMLElement | undefined {
    const element = this.shown.byHandle.get(handle);
    return element?.isConnected ? element : undefined;
  }

  /** The draft element a node of the frame belongs to: its nearest marked ancestor. */
  handleAt(target: EventTarget | null): ElementHandle | null {
    // The frame's nodes are of its own realm: `instanceof Node` of this one would say no.
    const node = target && 'nodeType' in target ? (target as Node) : null;
    let element = node ? (node.nodeType === 1 ? node : node.parentNode) : null;
    while (element && element.nodeType === 1) {
      const handle = this.shown.byElement.get(element as Element);
      if (handle) return handle;
      element = element.parentNode;
    }
    return null;
  }

  /** Scrolls the frame so the element is in view (the screen around it does not move). */
  reveal(handle: ElementHandle): void {
    const element = this.elementOf(handle);
    const win = this.frame?.contentWindow;
    if (!element || !win) return;
    const box = element.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= win.innerHeight) return;
    win.scrollTo({ top: Math.max(0, box.top + win.scrollY - 24), behavior: 'instant' });
  }

  private wire(doc: Document): void {
    const on = <K extends keyof DocumentEventMap>(
      type: K,
      listener: (event: DocumentEventMap[K]) => void,
    ) => doc.addEventListener(type, listener, true);
    const stop = (event: Event) => {
      event.preventDefault();
      event.stopPropagation();
    };
    on('mouseover', (event) => {
      if (!this.drag?.active) this.events.hover(this.handleAt(event.target));
    });
    on('mouseout', (event) => {
      if (!event.relatedTarget) this.events.hover(null);
    });
    on('click', (event) => {
      if (this.editing?.element.contains(event.target as Node)) return;
      stop(event);
      const handle = this.handleAt(event.target);
      if (handle) this.events.select(handle);
    });
    on('auxclick', stop);
    on('dblclick', (event) => {
      if (this.editing) return;
      stop(event);
      const handle = this.handleAt(event.target);
      if (handle) this.events.edit(handle);
    });
    on('submit', stop);
    on('dragstart', stop);
    on('keydown', (event) => {
      if (this.editing) return this.editingKey(event);
      this.events.key(event);
    });
    // A file that did not load may mean the pass died (the server restarted): then the page
    // is posted again, which renews it, and the files load again.
    on('error', () => {
      this.movedSoon();
      void this.checkPass();
    });
    // An image that loads (or fails to, showing its alt text) moves what follows it: the marks
    // over the preview follow, once per frame however many load (each would lay out the page).
    on('load', () => this.movedSoon());
    on('mousedown', (event) => this.pressed(event));
    on('mousemove', (event) => this.dragged(event));
    on('mouseup', (event) => this.released(event));
    doc.defaultView?.addEventListener('scroll', () => this.events.moved(), { passive: true });
    doc.defaultView?.addEventListener('resize', () => this.events.moved());
  }

  private movedSoon(): void {
    if (this.moveFrame) return;
    this.moveFrame = requestAnimationFrame(() => {
      this.moveFrame = 0;
      this.events.moved();
    });
  }

  private async checkPass(): Promise<void> {
    if (this.probing || this.loading) return;
    this.probing = true;
    try {
      const answer = await fetch(this.source.passProbe, { credentials: 'same-origin' });
      const last = this.last;
      if (answer.status === 404 && last && !this.loading) this.reload(last.key, last.view);
    } catch {
      // Offline: nothing to renew now.
    } finally {
      this.probing = false;
    }
  }

  /** Drag and drop of the selected element inside the preview, by pointer. */
  private pressed(event: MouseEvent): void {
    if (event.button !== 0 || this.editing) return;
    const handle = this.handleAt(event.target);
    if (handle && handle !== this.body)
      this.drag = { target: handle, x: event.clientX, y: event.clientY, active: false };
  }

  private dragged(event: MouseEvent): void {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.active) {
      const far = Math.hypot(event.clientX - drag.x, event.clientY - drag.y) >= DRAG_START_PX;
      if (!far) return;
      drag.active = true;
    }
    event.preventDefault();
    const anchor = this.handleAt(event.target);
    const element = anchor ? this.elementOf(anchor) : undefined;
    if (!anchor || !element || anchor === drag.target) {
      this.dropAt = null;
    } else {
      const box = element.getBoundingClientRect();
      const share = (event.clientY - box.top) / Math.max(1, box.height);
      const where: Placement = share < 0.3 ? 'before' : share > 0.7 ? 'after' : 'inside';
      this.dropAt = { anchor, where: anchor === this.body ? 'inside' : where };
    }
    this.events.moved();
  }

  private released(event: MouseEvent): void {
    const drag = this.drag;
    this.drag = null;
    const dropAt = this.dropAt;
    this.dropAt = null;
    if (!drag?.active) return;
    event.preventDefault();
    this.events.moved();
    if (dropAt) this.events.drop(drag.target, dropAt.anchor, dropAt.where);
  }

  /** The drop place shown while dragging in the preview. */
  get dropIndicator(): { element: HTMLElement; where: Placement } | null {
    const element = this.dropAt ? this.elementOf(this.dropAt.anchor) : undefined;
    return element && this.dropAt ? { element, where: this.dropAt.where } : null;
  }

  cancelDrag(): boolean {
    const was = this.drag?.active ?? false;
    this.drag = null;
    this.dropAt = null;
    if (was) this.events.moved();
    return was;
  }

  /** Edits the element's content in place: Enter or leaving it commits, Escape cancels. */
  startEditing(handle: ElementHandle): boolean {
    const element = this.elementOf(handle);
    if (!element || handle === this.body) return false;
    this.stopEditing(false);
    this.editing = { handle, element, before: element.innerHTML };
    element.contentEditable = 'true';
    element.addEventListener('blur', () => this.stopEditing(true, true), { once: true });
    // Focus would centre the element in the window when any of it is hidden (under the sticky
    // toolbar, whose height is the screen's scroll padding): the least scrolling shows it whole.
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const selection = element.ownerDocument.getSelection();
    selection?.selectAllChildren(element);
    this.events.moved();
    return true;
  }

  /** Types keys held before the element could be edited into it (see held-keys.ts). */
  typeHeld(keys: readonly HeldKey[]): void {
    const editing = this.editing;
    if (!editing || keys.length === 0) return;
    const ended = typeHeld(editing.element.ownerDocument, keys);
    if (ended) this.stopEditing(ended === 'Enter');
  }

  get isEditing(): boolean {
    return this.editing !== null;
  }

  private editingKey(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.stopEditing(false);
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.stopEditing(true);
    }
  }

  /** Ends an in-place edit, committing its content or putting the old one back. */
  stopEditing(commit: boolean, focusLeft = false): void {
    const editing = this.editing;
    if (!editing) return;
    this.editing = null;
    const { element, before, handle } = editing;
    element.removeAttribute('contenteditable');
    const after = contentOf(element);
    if (!commit) element.innerHTML = before;
    this.events.edited(
      handle,
      commit && after !== contentOf(withContent(element, before)) ? after : null,
      focusLeft,
    );
  }
}

/** The element's content as HTML, without the preview's marks. */
function contentOf(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const marked of copy.querySelectorAll(`[${marker()}]`)) marked.removeAttribute(marker());
  return copy.innerHTML;
}

function withContent(element: HTMLElement, html: string): HTMLElement {
  const copy = element.cloneNode(false) as HTMLElement;
  copy.innerHTML = html;
  return copy;
}
