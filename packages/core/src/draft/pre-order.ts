import type { DraftElement } from './element.js';

/**
 * The numbered pre-order of the elements inside <body>, as an implicit treap (a randomized
 * balanced tree keyed by position) whose nodes are the elements themselves: numbering an element,
 * finding `@n`, and cutting or pasting the run of a whole subtree each take O(log n) instead of
 * a walk over the document.
 */
type TreapNode = DraftElement;

/** A detached run of elements (a treap root), kept by the history while its elements are out. */
export type Piece = TreapNode | null;

const sizeOf = (node: TreapNode | null): number => (node ? node.size : 0);

function update(element: TreapNode): void {
  element.size = 1 + sizeOf(element.left) + sizeOf(element.right);
}

function setLeft(parent: TreapNode, child: TreapNode | null): void {
  parent.left = child;
  if (child) child.up = parent;
}

function setRight(parent: TreapNode, child: TreapNode | null): void {
  parent.right = child;
  if (child) child.up = parent;
}

function detachRoot(node: TreapNode | null): TreapNode | null {
  if (node) node.up = null;
  return node;
}

/** Splits off the first `count` elements: returns [first `count`, rest]. */
function split(root: TreapNode | null, count: number): [TreapNode | null, TreapNode | null] {
  if (!root) return [null, null];
  const leftSize = sizeOf(root.left);
  if (count <= leftSize) {
    const [a, b] = split(detachRoot(root.left), count);
    setLeft(root, b);
    update(root);
    return [a, detachRoot(root)];
  }
  const [a, b] = split(detachRoot(root.right), count - leftSize - 1);
  setRight(root, a);
  update(root);
  return [detachRoot(root), b];
}

function merge(a: TreapNode | null, b: TreapNode | null): TreapNode | null {
  if (!a) return detachRoot(b);
  if (!b) return detachRoot(a);
  if (a.priority >= b.priority) {
    setRight(a, merge(detachRoot(a.right), b));
    update(a);
    return detachRoot(a);
  }
  setLeft(b, merge(a, detachRoot(b.left)));
  update(b);
  return detachRoot(b);
}

/** Builds a treap from elements in order, in linear time (Cartesian tree by priority). */
export function buildPiece(elements: readonly TreapNode[]): Piece {
  const spine: TreapNode[] = [];
  for (const element of elements) {
    let last: TreapNode | null = null;
    while (spine.length > 0 && spine[spine.length - 1]!.priority < element.priority) {
      last = spine.pop()!;
    }
    setLeft(element, last);
    element.right = null;
    const top = spine[spine.length - 1];
    if (top) setRight(top, element);
    spine.push(element);
  }
  const root = spine[0] ?? null;
  if (root) {
    root.up = null;
    resize(root);
  }
  return root;
}

function resize(element: TreapNode): number {
  element.size =
    1 + (element.left ? resize(element.left) : 0) + (element.right ? resize(element.right) : 0);
  return element.size;
}

/** The numbered sequence: position 0 is <body>, then the elements inside it in pre-order. */
export class PreOrder {
  private root: TreapNode | null;

  constructor(piece: Piece) {
    this.root = piece;
  }

  get size(): number {
    return sizeOf(this.root);
  }

  /** The position of an attached element. */
  rank(element: TreapNode): number {
    let rank = sizeOf(element.left);
    for (let climb = element; climb.up; climb = climb.up) {
      if (climb === climb.up.right) rank += sizeOf(climb.up.left) + 1;
    }
    return rank;
  }

  at(position: number): TreapNode | undefined {
    let node = this.root;
    let rest = position;
    while (node) {
      const leftSize = sizeOf(node.left);
      if (rest < leftSize) node = node.left;
      else if (rest === leftSize) return node;
      else {
        rest -= leftSize + 1;
        node = node.right;
      }
    }
    return undefined;
  }

  /** Removes positions [from, to) and returns them as a piece. */
  cut(from: number, to: number): Piece {
    const [head, tail] = split(this.root, from);
    const [piece, rest] = split(tail, to - from);
    this.root = merge(head, rest);
    return piece;
  }

  /** Inserts a piece so that its first element lands at `position`. */
  paste(position: number, piece: Piece): void {
    if (!piece) return;
    const [head, tail] = split(this.root, position);
    this.root = merge(merge(head, piece), tail);
  }
}
