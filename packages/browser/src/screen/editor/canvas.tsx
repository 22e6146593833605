import { useComputed, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ElementHandle } from '@galley/core';
import { PreviewFrame } from './frame.js';
import { scaleToFit } from './devices.js';
import type { EditorModel } from './model.js';
import type { EditorScreen } from './screen.js';
import { elementName } from './words.js';
import { handleKey } from './keys.js';

interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

function boxOf(element: Element | undefined): Box | null {
  if (!element) return null;
  const r = element.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

const place = (box: Box) => ({
  left: `${box.left}px`,
  top: `${box.top}px`,
  width: `${box.width}px`,
  height: `${box.height}px`,
});

/**
 * The preview in its device's frame, with the editor's marks drawn over it (hover, selection,
 * problems, the drop place): the page itself is never restyled to show them.
 */
export function Canvas({ screen }: { screen: EditorScreen }) {
  const { model, setup } = screen;
  const host = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const room = useSignal(0);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    screen.frame = new PreviewFrame(
      element,
      {
        action: setup.previewAction,
        csrfToken: setup.csrfToken,
        passProbe: `${setup.previewBase}project.json`,
      },
      {
        hover: (handle) => (model.hover.value = handle),
        select: (handle) => screen.select(handle, { reveal: false }),
        edit: (handle) => screen.startEditing(handle),
        key: (event) => handleKey(screen, event),
        drop: (target, anchor, where) =>
          void screen.actions.moveTo(target, anchor, where, 'canvas'),
        // peek: a redraw runs inside the effect that draws the document, which must not depend on it.
        moved: () => (screen.tick.value = screen.tick.peek() + 1),
        edited: (handle, html, focusLeft) => {
          model.editingText.value = null;
          // Focus goes back to the element's row, not to the preview's own body; to the
          // selection's row when the element has left the page (its insert failed). Not when the
          // person put it elsewhere (a palette block just clicked may be taking it).
          const back = () => {
            if (focusLeft) return;
            const onPage = model.shown.peek()?.elements.numberOf(handle) != null;
            screen.select(onPage ? handle : model.selection.peek(), {
              reveal: false,
              focusTree: true,
            });
          };
          if (html === null) back();
          else void screen.actions.setContent(handle, html).then(back);
        },
      },
    );
    const observer = new ResizeObserver(() => (room.value = stage.current?.clientWidth ?? 0));
    if (stage.current) observer.observe(stage.current);
    return () => observer.disconnect();
  }, []);

  // Every change of the shown document is drawn into the frame.
  useSignalEffect(() => {
    void model.shown.value;
    screen.drawFrame();
  });

  const device = screen.device.value;
  const scale = scaleToFit(device, room.value);
  const width = device.width ?? Math.max(320, room.value);
  const frameBox = {
    width: `${width}px`,
    height: `${device.height}px`,
    transform: scale === 1 ? 'none' : `scale(${scale})`,
  };
  return (
    <div class="stage" ref={stage}>
      <div
        class={`device device-${device.id}${model.editable.value ? '' : ' read-only'}`}
        style={{ height: `${device.height * scale}px`, width: `${width * scale}px` }}
      >
        <div class="device-inner" style={frameBox}>
          {/* The frame lives here, put in by PreviewFrame: nothing rendered here touches it. */}
          <div class="frame-host" ref={host} />
          <Overlay screen={screen} />
        </div>
      </div>
      {scale < 1 ? (
        <p class="hint">
          Shown at {Math.round(scale * 100)}% of {device.width}×{device.height}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The marks over the preview, each drawn by its own part: a click redraws the selection's box
 * alone, not the boxes of every problem on the page.
 */
function Overlay({ screen }: { screen: EditorScreen }) {
  return (
    <div class="overlay" aria-hidden="true">
      <ProblemMarks screen={screen} />
      <HoverMark screen={screen} />
      <SelectionMark screen={screen} />
      <DropMark screen={screen} />
    </div>
  );
}

/** The problems marked at most: past them the page is covered anyway. */
const MAX_PROBLEM_MARKS = 100;

/** `read` on the shown page, drawn again when the frame scrolls or the page changes. */
function useFrameComputed<T>(
  screen: EditorScreen,
  read: (frame: PreviewFrame, shown: NonNullable<EditorModel['shown']['value']>) => T,
) {
  const { model } = screen;
  return useComputed(() => {
    void screen.tick.value;
    void model.version.value;
    const frame = screen.frame;
    const shown = model.shown.value;
    return frame && shown ? read(frame, shown) : null;
  });
}

const boxIn = (frame: PreviewFrame, handle: ElementHandle | null) =>
  handle ? boxOf(frame.elementOf(handle)) : null;

function ProblemMarks({ screen }: { screen: EditorScreen }) {
  const boxes = useFrameComputed(screen, (frame) => {
    const found: Box[] = [];
    for (const problem of screen.model.problems.value) {
      const box = boxIn(frame, problem.element);
      if (box) found.push(box);
      if (found.length === MAX_PROBLEM_MARKS) break;
    }
    return found;
  }).value;
  return (
    <>
      {boxes?.map((box, i) => (
        <div key={i} class="mark mark-problem" style={place(box)} />
      ))}
    </>
  );
}

function HoverMark({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const mark = useFrameComputed(screen, (frame, shown) => {
    const hovered = model.hover.value;
    if (!hovered || hovered === model.selection.value) return null;
    const box = boxIn(frame, hovered);
    const number = shown.elements.numberOf(hovered);
    const entry = number ? shown.outline()[number - 1] : undefined;
    const name = entry ? elementName(entry.tag, entry.id, entry.classes) : '<body>';
    return box ? { box, name } : null;
  }).value;
  if (!mark) return null;
  return (
    <div class="mark mark-hover" style={place(mark.box)}>
      <span class="mark-label">{mark.name}</span>
    </div>
  );
}

function SelectionMark({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const box = useFrameComputed(screen, (frame) => boxIn(frame, model.selection.value)).value;
  if (!box) return null;
  const editing = model.editingText.value !== null;
  return <div class={`mark mark-selected${editing ? ' mark-editing' : ''}`} style={place(box)} />;
}

function DropMark({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const drop = useFrameComputed(screen, (frame) => {
    // A drag shows its place as the pointer goes over elements (hover) and when it ends.
    void model.hover.value;
    void model.selection.value;
    const indicator = frame.dropIndicator;
    const box = indicator ? boxOf(indicator.element) : null;
    return indicator && box ? { box, where: indicator.where } : null;
  }).value;
  if (!drop) return null;
  return <div class={`mark mark-drop drop-${drop.where}`} style={place(drop.box)} />;
}
