import type { ChildNode, Document, Element } from 'domhandler';
import { findOne } from 'domutils';
import {
  elementFrom,
  forEachElement,
  isElement,
  linkBefore,
  nextElementAfter,
  unlink,
} from './dom.js';
import { parseHtml } from './html.js';
import type { Piece } from './pre-order.js';
import { buildPiece, PreOrder, Slot } from './pre-order.js';
import { elementId } from './text.js';

/** Nodes that enter and leave the tree together; `piece` holds their slots while they are out. */
export interface Group {
  readonly nodes: readonly ChildNode[];
  piece: Piece | undefined;
}

/** Where a group sat (or will sit): in `parent`, before `before` or at the end. */
export interface Place {
  readonly parent: Element;
  readonly before: ChildNode | null;
}

/**
 * A parsed page with the indexes that make references cheap: the numbered pre-order of the
 * elements inside <body> and the ids found there. Every change goes through attach and detach,
 * which keep the DOM and both indexes in step.
 */
export class IndexedPage {
  private readonly order: PreOrder;
  private readonly slots = new WeakMap<Element, Slot>();
  private readonly ids = new Map<string, Slot[]>();
  /** Ids outside <body> (in <head>): never changed by operations, still taken for duplicates. */
  private readonly outsideIds = new Set<string>();

  private constructor(
    readonly document: Document,
    readonly body: Element,
  ) {
    const slots: Slot[] = [];
    this.collect(body, slots);
    this.order = new PreOrder(buildPiece(slots));
    this.collectOutsideIds(document.children);
  }

  /** Parses a page; null when it has no <body> element. */
  static parse(html: string): IndexedPage | null {
    const document = parseHtml(html);
    const body = findOne((element) => element.name === 'body', document.children, true);
    return body ? new IndexedPage(document, body) : null;
  }

  /** Elements inside <body>, <body> excluded. */
  get count(): number {
    return this.order.size - 1;
  }

  /** The outline number of an element inside <body> (0 for <body>). */
  numberOf(element: Element): number {
    return this.order.rank(this.slotOf(element));
  }

  /** The element with this outline number, if any. */
  elementAt(number: number): Element | undefined {
    return this.order.at(number)?.element;
  }

  /** The first element inside <body> with this id, if any. */
  elementWithId(id: string): Element | undefined {
    const holders = this.ids.get(id);
    if (!holders || holders.length === 0) return undefined;
    let first = holders[0]!;
    if (holders.length > 1) {
      let firstRank = this.order.rank(first);
      for (const slot of holders) {
        const rank = this.order.rank(slot);
        if (rank < firstRank) [first, firstRank] = [slot, rank];
      }
    }
    return first.element;
  }

  idTaken(id: string): boolean {
    return (this.ids.get(id)?.length ?? 0) > 0 || this.outsideIds.has(id);
  }

  /** Visits the elements inside <body> in outline order with their numbers (body excluded). */
  forEachSlot(visit: (slot: Slot, number: number) => void): void {
    this.order.forEach((slot, number) => {
      if (number > 0) visit(slot, number);
    });
  }

  /** Puts a detached group into the tree at `place`. */
  attach(group: Group, place: Place): void {
    const { parent, before } = place;
    const next = elementFrom(before, parent, this.body);
    const position = next ? this.numberOf(next) : this.order.size;
    linkBefore(parent, before, group.nodes);
    this.order.paste(position, group.piece ?? this.freshPiece(group.nodes));
    group.piece = undefined;
    forEachElement(group.nodes, (element) => this.addId(element));
    this.touch(parent);
  }

  /** Takes a group of adjacent siblings out of the tree; returns where it was. */
  detach(group: Group): Place {
    const nodes = group.nodes;
    const first = nodes[0]!;
    const last = nodes[nodes.length - 1]!;
    const parent = first.parent as Element;
    const place: Place = { parent, before: last.next };
    const firstElement = nodes.find(isElement);
    if (firstElement) {
      const from = this.numberOf(firstElement);
      const after = nextElementAfter(last, this.body);
      group.piece = this.order.cut(from, after ? this.numberOf(after) : this.order.size);
    } else group.piece = null;
    forEachElement(nodes, (element) => this.removeId(element));
    unlink(nodes);
    this.touch(parent);
    return place;
  }

  private slotOf(element: Element): Slot {
    const slot = this.slots.get(element);
    if (!slot) throw new Error('draft index out of step: element has no slot');
    return slot;
  }

  private collect(element: Element, into: Slot[]): void {
    const slot = new Slot(element);
    this.slots.set(element, slot);
    into.push(slot);
    this.addId(element);
    for (const child of element.children) if (isElement(child)) this.collect(child, into);
  }

  private collectOutsideIds(nodes: readonly ChildNode[]): void {
    for (const node of nodes) {
      if (!isElement(node) || node === this.body) continue;
      const id = elementId(node);
      if (id !== null) this.outsideIds.add(id);
      this.collectOutsideIds(node.children);
    }
  }

  private freshPiece(nodes: readonly ChildNode[]): Piece {
    const slots: Slot[] = [];
    forEachElement(nodes, (element) => {
      const slot = new Slot(element);
      this.slots.set(element, slot);
      slots.push(slot);
    });
    return buildPiece(slots);
  }

  private addId(element: Element): void {
    const id = elementId(element);
    if (id === null) return;
    const slot = this.slotOf(element);
    const holders = this.ids.get(id);
    if (holders) holders.push(slot);
    else this.ids.set(id, [slot]);
  }

  private removeId(element: Element): void {
    const id = elementId(element);
    if (id === null) return;
    const holders = this.ids.get(id);
    if (!holders) return;
    const slot = this.slotOf(element);
    const index = holders.indexOf(slot);
    if (index >= 0) holders.splice(index, 1);
    if (holders.length === 0) this.ids.delete(id);
  }

  /** The content below `element` changed: its text and its ancestors' must be read again. */
  private touch(element: Element): void {
    for (let node: Element | null = element; node;) {
      const slot = this.slots.get(node);
      if (slot) slot.text = undefined;
      if (node === this.body) return;
      node = node.parent && isElement(node.parent) ? node.parent : null;
    }
  }
}
