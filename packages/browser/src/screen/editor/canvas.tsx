import { useComputed, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ElementHandle } from '@galley/core';
import { PreviewFrame } from './frame.js';
import { scaleToFit } from './devices.js';
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
        edited: (handle, html) => {
          model.editingText.value = null;
          // Focus goes back to the element's row, not to the preview's own body.
          const back = () => screen.select(handle, { reveal: false, focusTree: true });
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

function Overlay({ screen }: { screen: EditorScreen }) {
  const { model } = screen;
  const marks = useComputed(() => {
    void screen.tick.value;
    void model.version.value;
    const frame = screen.frame;
    const shown = model.shown.value;
    if (!frame || !shown) return null;
    const at = (handle: ElementHandle | null) => (handle ? boxOf(frame.elementOf(handle)) : null);
    const hovered = model.hover.value;
    const hoverEntry = hovered ? shown.elements.numberOf(hovered) : null;
    const entry = hoverEntry ? shown.outline()[hoverEntry - 1] : undefined;
    const drop = frame.dropIndicator;
    return {
      selection: at(model.selection.value),
      hover: hovered === model.selection.value ? null : at(hovered),
      hoverName: entry ? elementName(entry.tag, entry.id, entry.classes) : hovered ? '<body>' : '',
      problems: model.problems.value
        .map((problem) => at(problem.element))
        .filter((box): box is Box => box !== null)
        .slice(0, 100),
      drop: drop ? { box: boxOf(drop.element)!, where: drop.where } : null,
      editing: model.editingText.value !== null,
    };
  });
  const m = marks.value;
  if (!m) return <div class="overlay" aria-hidden="true" />;
  return (
    <div class="overlay" aria-hidden="true">
      {m.problems.map((box, i) => (
        <div key={`p${i}`} class="mark mark-problem" style={place(box)} />
      ))}
      {m.hover ? (
        <div class="mark mark-hover" style={place(m.hover)}>
          <span class="mark-label">{m.hoverName}</span>
        </div>
      ) : null}
      {m.selection ? (
        <div
          class={`mark mark-selected${m.editing ? ' mark-editing' : ''}`}
          style={place(m.selection)}
        />
      ) : null}
      {m.drop ? (
        <div class={`mark mark-drop drop-${m.drop.where}`} style={place(m.drop.box)} />
      ) : null}
    </div>
  );
}
