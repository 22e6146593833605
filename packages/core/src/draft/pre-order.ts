import type { DraftElement } from './element.js';

/**
 * The numbered pre-order of the elements inside <body>, as an implicit treap (a randomized
 * balanced tree keyed by position) whose nodes are the elements themselves: numbering an element,
 * finding `@n`, and cutting or pasting the run of a whole subtree each take O(log n) instead of
 * a walk over the document.
 */
type Slot = DraftElement;

/** A detached run of elements (a treap root), kept by the history while its elements are out. */
export type Piece = Slot | null;

const sizeOf = (slot: Slot | null): number => (slot ? slot.size : 0);

function update(slot: Slot): void {
  slot.size = 1 + sizeOf(slot.left) + sizeOf(slot.right);
}

function setLeft(parent: Slot, child: Slot | null): void {
  parent.left = child;
  if (child) child.up = parent;
}

function setRight(parent: Slot, child: Slot | null): void {
  parent.right = child;
  if (child) child.up = parent;
}

function detachRoot(slot: Slot | null): Slot | null {
  if (slot) slot.up = null;
  return slot;
}

/** Splits off the first `count` slots: returns [first `count`, rest]. */
function split(root: Slot | null, count: number): [Slot | null, Slot | null] {
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

function merge(a: Slot | null, b: Slot | null): Slot | null {
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

/** Builds a treap from slots in order, in linear time (Cartesian tree by priority). */
export function buildPiece(slots: readonly Slot[]): Piece {
  const spine: Slot[] = [];
  for (const slot of slots) {
    let last: Slot | null = null;
    while (spine.length > 0 && spine[spine.length - 1]!.priority < slot.priority) {
      last = spine.pop()!;
    }
    setLeft(slot, last);
    slot.right = null;
    const top = spine[spine.length - 1];
    if (top) setRight(top, slot);
    spine.push(slot);
  }
  const root = spine[0] ?? null;
  if (root) {
    root.up = null;
    resize(root);
  }
  return root;
}

function resize(slot: Slot): number {
  slot.size = 1 + (slot.left ? resize(slot.left) : 0) + (slot.right ? resize(slot.right) : 0);
  return slot.size;
}

/** The numbered sequence: position 0 is <body>, then the elements inside it in pre-order. */
export class PreOrder {
  private root: Slot | null;

  constructor(piece: Piece) {
    this.root = piece;
  }

  get size(): number {
    return sizeOf(this.root);
  }

  /** The position of an attached slot. */
  rank(slot: Slot): number {
    let rank = sizeOf(slot.left);
    for (let node = slot; node.up; node = node.up) {
      if (node === node.up.right) rank += sizeOf(node.up.left) + 1;
    }
    return rank;
  }

  at(position: number): Slot | undefined {
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

  /** Inserts a piece so that its first slot lands at `position`. */
  paste(position: number, piece: Piece): void {
    if (!piece) return;
    const [head, tail] = split(this.root, position);
    this.root = merge(merge(head, piece), tail);
  }
}
