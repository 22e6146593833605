import { useComputed, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ElementHandle } from '@galley/core';
import type { Placement } from './actions.js';
import type { EditorScreen } from './screen.js';
import type { Row } from './tree-rows.js';
import { visibleRows } from './tree-rows.js';

const ROW_PX = 28;
/**
 * Rows drawn beyond the view on each side. Few: a click far down the page scrolls the tree to a
 * new stretch whose rows all change, each styled and laid out in the frame that shows the
 * selection.
 */
const OVERSCAN = 2;

/**
 * The outline as an ARIA tree: one Tab stop, arrow keys to move (selection follows focus), Left
 * and Right to close and open, drag and drop to move elements. Only the rows in view are drawn,
 * so a page of 20,000 elements selects as fast as a page of 20.
 */
export function OutlineTree({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const scrollTop = useSignal(0);
  const height = useSignal(480);
  const dragging = useSignal<ElementHandle | null>(null);
  const dropAt = useSignal<{ node: number; where: Placement } | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const rows = useComputed(() => {
    const shown = model.shown.value;
    return shown ? visibleRows(shown, screen.collapsed.value) : [];
  });
  const selectedNumber = useComputed(() => {
    const shown = model.shown.value;
    const selected = model.selection.value;
    return shown && selected ? shown.elements.numberOf(selected) : null;
  });
  const problemCounts = useComputed(() => {
    const shown = model.shown.value;
    const counts = new Map<number, number>();
    for (const problem of model.problems.value) {
      const number = problem.element && shown ? shown.elements.numberOf(problem.element) : null;
      if (number !== null) counts.set(number, (counts.get(number) ?? 0) + 1);
    }
    return counts;
  });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => (height.value = element.clientHeight || 480));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box.current]);

  // Keeps the selected row in view, and focuses it when asked (keyboard, after an action).
  useSignalEffect(() => {
    const number = selectedNumber.value;
    const focus = screen.focusRow.value;
    const element = box.current;
    if (number === null || !element) return;
    const index = rows.value.findIndex((row) => row.entry.node === number);
    if (index < 0) return;
    const top = index * ROW_PX;
    if (top < element.scrollTop || top + ROW_PX > element.scrollTop + element.clientHeight) {
      element.scrollTop = Math.max(0, top - element.clientHeight / 2);
      scrollTop.value = element.scrollTop;
    }
    if (focus) {
      screen.focusRow.value = null;
      requestAnimationFrame(() =>
        element.querySelector<HTMLElement>(`[data-node="${number}"]`)?.focus(),
      );
    }
  });

  const shown = model.shown.value;
  const all = rows.value;
  if (!shown) return <p class="hint">Opening the page…</p>;
  if (all.length === 0)
    return (
      <div role="tree" aria-label="Outline" tabIndex={0} class="tree empty">
        The body has no elements yet: insert one from the palette.
      </div>
    );
  const first = Math.max(0, Math.floor(scrollTop.value / ROW_PX) - OVERSCAN);
  const last = Math.min(
    all.length,
    Math.ceil((scrollTop.value + height.value) / ROW_PX) + OVERSCAN,
  );
  const selected = selectedNumber.value;
  // The one Tab stop: the selected row when it is drawn, else the first drawn row.
  const tabStop = all.slice(first, last).some((row) => row.entry.node === selected)
    ? selected
    : all[first]?.entry.node;

  const handleOf = (row: Row) => shown.elements.at(row.entry.node) ?? null;
  const choose = (row: Row | undefined, focus = true) => {
    if (!row) return;
    screen.select(handleOf(row), { focusTree: focus });
  };
  const toggle = (row: Row, open: boolean) => {
    const handle = handleOf(row);
    if (!handle || !row.hasChildren) return;
    const next = new Set(screen.collapsed.value);
    if (open) next.delete(handle);
    else next.add(handle);
    screen.collapsed.value = next;
  };

  const onKey = (event: KeyboardEvent) => {
    // Arrows count from the row that has the focus (the selection may be elsewhere, or none).
    const focused = (event.target as HTMLElement)
      .closest?.('[data-node]')
      ?.getAttribute('data-node');
    const from = focused === null || focused === undefined ? selected : Number(focused);
    const index = all.findIndex((row) => row.entry.node === from);
    const row = all[index];
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
    const go = (target: Row | undefined) => {
      event.preventDefault();
      event.stopPropagation();
      choose(target);
    };
    if (!plain) return;
    switch (event.key) {
      case 'ArrowDown':
        return go(all[index < 0 ? 0 : Math.min(all.length - 1, index + 1)]);
      case 'ArrowUp':
        return go(all[index < 0 ? 0 : Math.max(0, index - 1)]);
      case 'Home':
        return go(all[0]);
      case 'End':
        return go(all[all.length - 1]);
      case 'ArrowRight':
        if (!row) return go(all[0]);
        event.preventDefault();
        if (row.hasChildren && !row.expanded) return toggle(row, true);
        if (row.expanded) return go(all[index + 1]);
        return;
      case 'ArrowLeft': {
        if (!row) return go(all[0]);
        event.preventDefault();
        if (row.expanded) return toggle(row, false);
        const parent = all.slice(0, index).findLast((other) => other.level < row.level);
        if (parent) go(parent);
        return;
      }
    }
  };

  const dropPlace = (event: DragEvent): Placement => {
    const target = event.currentTarget as HTMLElement;
    const share = event.offsetY / Math.max(1, target.offsetHeight);
    return share < 0.3 ? 'before' : share > 0.7 ? 'after' : 'inside';
  };

  return (
    <div
      ref={box}
      role="tree"
      aria-label="Outline"
      aria-multiselectable="false"
      class={`tree${model.editable.value ? '' : ' read-only'}`}
      onScroll={(event) => (scrollTop.value = (event.currentTarget as HTMLElement).scrollTop)}
      onKeyDown={onKey}
    >
      <div class="tree-space" style={{ height: `${all.length * ROW_PX}px` }}>
        {all.slice(first, last).map((row, i) => {
          const { entry } = row;
          // Keyed by slot, not by element: a jump to another stretch of the outline rewrites the
          // drawn rows' text and attributes instead of building every row again.
          const slot = (first + i) % (last - first);
          const problems = problemCounts.value.get(entry.node) ?? 0;
          const drop = dropAt.value?.node === entry.node ? dropAt.value.where : null;
          return (
            <div
              key={slot}
              role="treeitem"
              data-node={entry.node}
              aria-level={row.level}
              aria-setsize={row.setSize}
              aria-posinset={row.position}
              aria-expanded={row.hasChildren ? row.expanded : undefined}
              aria-selected={entry.node === selected ? 'true' : 'false'}
              tabIndex={entry.node === tabStop ? 0 : -1}
              class={`tree-row${problems ? ' has-problem' : ''}${drop ? ` drop-${drop}` : ''}`}
              style={{ top: `${(first + i) * ROW_PX}px`, paddingLeft: `${row.level * 14}px` }}
              draggable={model.editable.value}
              onClick={() => choose(row)}
              onDblClick={() => {
                const handle = handleOf(row);
                if (handle) screen.startEditing(handle);
              }}
              onMouseEnter={() => (model.hover.value = handleOf(row))}
              onMouseLeave={() => (model.hover.value = null)}
              onDragStart={(event) => {
                dragging.value = handleOf(row);
                event.dataTransfer?.setData('text/plain', `@${entry.node}`);
              }}
              onDragOver={(event) => {
                if (!dragging.value) return;
                event.preventDefault();
                dropAt.value = { node: entry.node, where: dropPlace(event) };
              }}
              onDragLeave={() => (dropAt.value = null)}
              onDrop={(event) => {
                event.preventDefault();
                const target = dragging.value;
                const anchor = handleOf(row);
                const where = dropPlace(event);
                dragging.value = null;
                dropAt.value = null;
                if (target && anchor && target !== anchor)
                  void screen.actions.moveTo(target, anchor, where, 'tree');
              }}
              onDragEnd={() => {
                dragging.value = null;
                dropAt.value = null;
              }}
            >
              <span
                class="twisty"
                aria-hidden="true"
                onClick={(event) => {
                  event.stopPropagation();
                  toggle(row, !row.expanded);
                }}
              >
                {row.hasChildren ? (row.expanded ? '▾' : '▸') : ''}
              </span>
              {/* The same parts in every row (empty when absent), so a reused row only changes text. */}
              <span class="tag">{entry.tag}</span>
              <span class="id">{entry.id === null ? '' : `#${entry.id}`}</span>
              <span class="classes">
                {entry.classes.length ? `.${entry.classes.join('.')}` : ''}
              </span>
              <span class="text">{entry.text ? ` ${entry.text}` : ''}</span>
              {problems ? (
                <span class="problem-mark" title={`${problems} problem(s)`}>
                  {' '}
                  <span aria-hidden="true">⚠</span>
                  <span class="sr-only"> {problems} problem(s)</span>
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}
