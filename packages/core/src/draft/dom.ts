import type { ChildNode, Element, ParentNode } from 'domhandler';
import { isTag } from 'domhandler';

/** Element nodes: `tag`, and htmlparser2's own types for <script> and <style>. */
export const isElement: (node: ChildNode | ParentNode) => node is Element = isTag;

/** Puts detached `nodes` into `parent`'s children, before `before` (a child) or at the end. */
export function linkBefore(
  parent: Element,
  before: ChildNode | null,
  nodes: readonly ChildNode[],
): void {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  if (!first || !last) return;
  const children = parent.children;
  const index = before ? children.indexOf(before) : children.length;
  const prev = children[index - 1] ?? null;
  if (nodes.length === 1) children.splice(index, 0, first);
  else parent.children = [...children.slice(0, index), ...nodes, ...children.slice(index)];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    node.parent = parent;
    node.prev = nodes[i - 1] ?? null;
    node.next = nodes[i + 1] ?? null;
  }
  first.prev = prev;
  if (prev) prev.next = first;
  last.next = before;
  if (before) before.prev = last;
}

/** Takes a run of adjacent siblings out of their parent. */
export function unlink(nodes: readonly ChildNode[]): void {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  const parent = first?.parent;
  if (!first || !last || !parent) return;
  const index = parent.children.indexOf(first);
  parent.children.splice(index, nodes.length);
  if (first.prev) first.prev.next = last.next;
  if (last.next) last.next.prev = first.prev;
  first.prev = null;
  last.next = null;
  for (const node of nodes) node.parent = null;
}

/** The first element after `node`'s subtree in pre-order, not leaving `root`'s subtree. */
export function nextElementAfter(node: ChildNode, root: Element): Element | null {
  for (let current: ChildNode = node; current !== root;) {
    for (let sibling = current.next; sibling; sibling = sibling.next) {
      if (isElement(sibling)) return sibling;
    }
    const parent = current.parent;
    if (!parent || !isElement(parent)) return null;
    current = parent;
  }
  return null;
}

/** The first element at or after `node` among its following siblings, or after the parent. */
export function elementFrom(
  node: ChildNode | null,
  parent: Element,
  root: Element,
): Element | null {
  for (let sibling = node; sibling; sibling = sibling.next) {
    if (isElement(sibling)) return sibling;
  }
  return parent === root ? null : nextElementAfter(parent, root);
}

/** Calls `visit` for every element in `nodes` and below, in pre-order. */
export function forEachElement(
  nodes: readonly ChildNode[],
  visit: (element: Element) => void,
): void {
  for (const node of nodes) {
    if (isElement(node)) {
      visit(node);
      forEachElement(node.children, visit);
    }
  }
}

/**
 * Levels of elements from `root` down: 1 for an element without child elements. The walk follows
 * parent and sibling links instead of recursing, so it needs no stack however deep the tree, and
 * it stops at the first element more than `limit` levels down (the answer is then past `limit`).
 */
export function heightOf(root: Element, limit = Infinity): number {
  let height = 1;
  let depth = 1;
  let node: Element = root;
  while (height <= limit) {
    const child = firstElementFrom(node.children[0] ?? null);
    if (child) {
      node = child;
      depth += 1;
      if (depth > height) height = depth;
      continue;
    }
    // A leaf: on to the next element in pre-order, climbing back no higher than `root`.
    let next: Element | null = null;
    while (node !== root && !(next = firstElementFrom(node.next))) {
      node = node.parent as Element;
      depth -= 1;
    }
    if (!next) return height;
    node = next;
  }
  return height;
}

function firstElementFrom(node: ChildNode | null): Element | null {
  for (let sibling = node; sibling; sibling = sibling.next) {
    if (isElement(sibling)) return sibling;
  }
  return null;
}

/** True when `node` is `ancestor` or lies below it. */
export function isInside(node: ParentNode | null, ancestor: Element): boolean {
  for (let current = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}
