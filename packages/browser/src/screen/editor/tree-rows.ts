import type { ElementHandle, OutlineEntry } from '@galley/core';
import type { Shown } from './model.js';

/** One visible row of the outline tree. */
export interface Row {
  readonly entry: OutlineEntry;
  /** 1 for a child of <body>, as `aria-level` counts. */
  readonly level: number;
  readonly hasChildren: boolean;
  readonly expanded: boolean;
  readonly setSize: number;
  readonly position: number;
}

/**
 * The rows a tree shows: every outline entry whose ancestors are all expanded, with what ARIA's
 * tree pattern needs of each (level, siblings count and place). Collapsed elements are held as
 * handles and turned into numbers once per call.
 */
export function visibleRows(shown: Shown, collapsed: ReadonlySet<ElementHandle>): Row[] {
  const outline = shown.outline();
  const depths = shown.outlineDepths();
  const closed = new Set<number>();
  for (const handle of collapsed) {
    const number = shown.elements.numberOf(handle);
    if (number !== null) closed.add(number);
  }
  const sizes = siblingCounts(depths);
  const rows: Row[] = [];
  const positions: number[] = [];
  let hiddenBelow = Infinity;
  for (let i = 0; i < outline.length; i++) {
    const depth = depths[i] ?? 0;
    positions.length = depth + 1;
    positions[depth] = (positions[depth] ?? 0) + 1;
    if (depth > hiddenBelow) continue;
    hiddenBelow = Infinity;
    const entry = outline[i]!;
    const hasChildren = (depths[i + 1] ?? -1) > depth;
    const expanded = hasChildren && !closed.has(entry.node);
    if (hasChildren && !expanded) hiddenBelow = depth;
    rows.push({
      entry,
      level: depth + 1,
      hasChildren,
      expanded,
      setSize: sizes[i] ?? 1,
      position: positions[depth],
    });
  }
  return rows;
}

/** For each entry, how many siblings (itself included) share its parent. */
function siblingCounts(depths: readonly number[]): number[] {
  const counts = new Array<number>(depths.length).fill(0);
  // The sibling groups still open, per depth: a group ends where a shallower entry starts.
  const open: number[][] = [];
  const close = (from: number) => {
    for (let d = open.length - 1; d >= from; d--) {
      const members = open[d] ?? [];
      for (const i of members) counts[i] = members.length;
    }
    open.length = from;
  };
  depths.forEach((depth, i) => {
    if (open.length > depth + 1) close(depth + 1);
    (open[depth] ??= []).push(i);
  });
  close(0);
  return counts;
}
