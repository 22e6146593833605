import type { ChildNode, Document, Element } from 'domhandler';
import { Parser } from 'htmlparser2';
import {
  elementFrom,
  forEachElement,
  isElement,
  linkBefore,
  nextElementAfter,
  unlink,
} from './dom.js';
import type { DraftElement } from './element.js';
import { DraftHandler } from './element.js';
import { rawMode } from './html.js';
import type { Piece } from './pre-order.js';
import { buildPiece, PreOrder } from './pre-order.js';
import { attributeValue, elementId } from './attributes.js';
import { implyBody } from './implied-body.js';

/** Nodes that enter and leave the tree together; `piece` holds their index while they are out. */
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
 * What a view of the page (a preview) can catch up on: each element whose children changed, and
 * the lowest number where elements came or went. Bounded: a view further behind draws anew.
 */
export interface ChangeLog {
  /** Elements whose children (elements or text) changed, each at most once, in no order. */
  readonly parents: readonly Element[];
  /** Elements numbered below this kept their numbers (Infinity: no element came or went). */
  readonly from: number;
}
const CHANGE_LOG_SIZE = 256;
/** Elements whose ids a gradual parse indexes between two pauses (a few ms). */
const ELEMENTS_PER_STEP = 8192;

/** Every element of a draft is a DraftElement: the page, fragments and copies are built so. */
const indexed = (element: Element): DraftElement => element as DraftElement;

/**
 * A parsed page with the indexes that make references cheap: the numbered pre-order of the
 * elements inside <body> and the ids found there. Every change goes through attach and detach,
 * which keep the DOM and both indexes in step.
 */
export class IndexedPage {
  private readonly order: PreOrder;
  /**
   * Id → the element(s) inside <body> carrying it (an array only when shared). An id whose last
   * holder left keeps its key, holding undefined: V8 keeps a deleted Map entry in its hash chain
   * until the table is rebuilt, so an id deleted and set again and again (an insert and a remove,
   * an undo and a redo) made each lookup of it walk every earlier one (2 µs at 800 ids, 20 µs at
   * 6,000, per change).
   */
  private readonly ids = new Map<string, DraftElement | DraftElement[] | undefined>();
  /** Ids outside <body> (in <head>): never changed by operations, still taken for duplicates. */
  private readonly outsideIds = new Set<string>();
  /** Since the last `takeChanges`: the lowest number where elements came or went… */
  private changedFrom = Infinity;
  /** …and the elements whose text was invalidated (each chain from a changed parent upwards). */
  private changedTexts: DraftElement[] = [];
  /** Every attach and detach so far, and the last CHANGE_LOG_SIZE of them (parent, from). */
  private changeCount = 0;
  private readonly changeLog: { parent: Element; from: number }[] = [];

  private constructor(
    readonly document: Document,
    readonly body: DraftElement,
    bodyOrder: readonly DraftElement[],
    outsideIds: readonly string[],
  ) {
    this.order = new PreOrder(buildPiece(bodyOrder));
    for (const raw of outsideIds) this.outsideIds.add(attributeValue(raw));
  }

  /**
   * The page over a parsed tree, the ids of `bodyOrder` indexed `perStep` elements at a time,
   * yielding between steps (in order: the first holder of a shared id stays first).
   */
  private static *indexed(
    parsed: { root: Document; body: DraftElement; bodyOrder: readonly DraftElement[] },
    outsideIds: readonly string[],
    perStep: number,
  ): Generator<void, IndexedPage, void> {
    const { root, body, bodyOrder } = parsed;
    const page = new IndexedPage(root, body, bodyOrder, outsideIds);
    for (let at = 0; at < bodyOrder.length; at += perStep) {
      if (at > 0) yield;
      const end = Math.min(bodyOrder.length, at + perStep);
      for (let i = at; i < end; i++) page.addId(bodyOrder[i]!);
    }
    return page;
  }

  /**
   * Parses a page, giving a body written without tags its element. Refused: a page nested deeper
   * than `maxNesting` (read no further than its first element too deep, as the `pages` check
   * does), and a frameset, which has no body.
   */
  static parse(html: string): IndexedPage | 'too_deep' | 'no_body' {
    const steps = IndexedPage.parseSteps(html, html.length);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `parse`, a piece at a time: the text is read `chunk` characters at a time, yielding between
   * pieces, so a caller can let other work run while a large page is read. htmlparser2 reads a
   * text written in pieces exactly as the whole (a text node cut in two is joined again).
   */
  static *parseSteps(
    html: string,
    chunk: number,
  ): Generator<void, IndexedPage | 'too_deep' | 'no_body', void> {
    const handler = new DraftHandler();
    const parser = new Parser(handler, rawMode);
    let at = 0;
    for (; at + chunk < html.length && !handler.tooDeep; at += chunk) {
      parser.write(html.slice(at, at + chunk));
      yield;
    }
    if (!handler.tooDeep) parser.end(html.slice(at));
    if (handler.tooDeep) return 'too_deep';
    // Indexing the elements comes in pieces of its own: on a 2 MB page (~50,000 elements) it
    // took ~40 ms in one, six times a piece read.
    const gradual = chunk < html.length;
    if (gradual) yield;
    const perStep = gradual ? ELEMENTS_PER_STEP : Infinity;
    const { root, body } = handler;
    if (body) {
      const parsed = { root, body, bodyOrder: handler.bodyOrder };
      return yield* IndexedPage.indexed(parsed, handler.outsideIds, perStep);
    }
    const implied = implyBody(root);
    if (!implied) return 'no_body';
    return yield* IndexedPage.indexed({ root, ...implied }, implied.outsideIds, perStep);
  }

  /** Elements inside <body>, <body> excluded. */
  get count(): number {
    return this.order.size - 1;
  }

  /** The outline number of an element inside <body> (0 for <body>). */
  numberOf(element: Element): number {
    return this.order.rank(indexed(element));
  }

  /** The element with this outline number, if any. */
  elementAt(number: number): DraftElement | undefined {
    return this.order.at(number);
  }

  /** The first element inside <body> with this id, if any. */
  elementWithId(id: string): DraftElement | undefined {
    const holders = this.ids.get(id);
    if (!Array.isArray(holders)) return holders;
    let first = holders[0];
    let firstRank = Infinity;
    for (const element of holders) {
      const rank = this.order.rank(element);
      if (rank < firstRank) [first, firstRank] = [element, rank];
    }
    return first;
  }

  idTaken(id: string): boolean {
    return this.ids.get(id) !== undefined || this.outsideIds.has(id);
  }

  /**
   * What changed since the last call: elements numbered below `from` kept their numbers (an
   * operation changes numbers only from the first element it adds or removes on), and `texts`
   * lists the elements whose outline text must be read again.
   */
  takeChanges(): { from: number; texts: readonly DraftElement[] } {
    const changes = { from: this.changedFrom, texts: this.changedTexts };
    this.changedFrom = Infinity;
    this.changedTexts = [];
    return changes;
  }

  /** How many changes the page has had: a view notes it, and asks `changesSince` later. */
  get changeMark(): number {
    return this.changeCount;
  }

  /** The changes after `mark`; null when they are no longer all kept. */
  changesSince(mark: number): ChangeLog | null {
    const behind = this.changeCount - mark;
    if (behind < 0 || behind > this.changeLog.length) return null;
    const parents = new Set<Element>();
    let from = Infinity;
    for (const change of this.changeLog.slice(this.changeLog.length - behind)) {
      parents.add(change.parent);
      from = Math.min(from, change.from);
    }
    return { parents: [...parents], from };
  }

  private logChange(parent: Element, from: number): void {
    this.changeCount += 1;
    this.changeLog.push({ parent, from });
    if (this.changeLog.length > CHANGE_LOG_SIZE) this.changeLog.shift();
  }

  /** Puts a detached group into the tree at `place`. */
  attach(group: Group, place: Place): void {
    const { parent, before } = place;
    const next = elementFrom(before, parent, this.body);
    const position = next ? this.numberOf(next) : this.order.size;
    linkBefore(parent, before, group.nodes);
    const elements: DraftElement[] = [];
    forEachElement(group.nodes, (element) => elements.push(indexed(element)));
    if (elements.length > 0) this.changedFrom = Math.min(this.changedFrom, position);
    this.order.paste(position, group.piece ?? buildPiece(elements));
    group.piece = undefined;
    for (const element of elements) this.addId(element);
    this.touch(parent);
    this.logChange(parent, elements.length > 0 ? position : Infinity);
  }

  /** Takes a group of adjacent siblings out of the tree; returns where it was. */
  detach(group: Group): Place {
    const nodes = group.nodes;
    const first = nodes[0]!;
    const last = nodes[nodes.length - 1]!;
    const parent = first.parent as Element;
    const place: Place = { parent, before: last.next };
    const firstElement = nodes.find(isElement);
    let from = Infinity;
    if (firstElement) {
      from = this.numberOf(firstElement);
      this.changedFrom = Math.min(this.changedFrom, from);
      const after = nextElementAfter(last, this.body);
      group.piece = this.order.cut(from, after ? this.numberOf(after) : this.order.size);
    } else group.piece = null;
    forEachElement(nodes, (element) => this.removeId(indexed(element)));
    unlink(nodes);
    this.touch(parent);
    this.logChange(parent, from);
    return place;
  }

  private addId(element: DraftElement): void {
    const id = elementId(element);
    if (id === null) return;
    const holders = this.ids.get(id);
    if (holders === undefined) this.ids.set(id, element);
    else if (Array.isArray(holders)) holders.push(element);
    else this.ids.set(id, [holders, element]);
  }

  private removeId(element: DraftElement): void {
    const id = elementId(element);
    if (id === null) return;
    const holders = this.ids.get(id);
    if (holders === element) this.ids.set(id, undefined);
    else if (Array.isArray(holders)) {
      const rest = holders.filter((holder) => holder !== element);
      this.ids.set(id, rest.length === 1 ? rest[0]! : rest);
    }
  }

  /**
   * The content below `element` changed: its outline text and its ancestors' must be read again.
   * An invalidated text has invalidated ancestors, so the climb stops at the first one.
   */
  private touch(element: Element): void {
    for (let node: Element | null = element; node;) {
      const draftElement = indexed(node);
      if (draftElement.text === undefined) return;
      draftElement.text = undefined;
      this.changedTexts.push(draftElement);
      if (node === this.body) return;
      node = node.parent && isElement(node.parent) ? node.parent : null;
    }
  }
}
