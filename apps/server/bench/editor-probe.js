// The in-page half of editor.bench.ts, evaluated in the editing screen's top document (through
// the DevTools protocol, which the screen's script policy does not govern). It times one
// interaction at a time with the page's own clock: the input event is stamped where it arrives
// (a capture listener on the window it is dispatched in: the preview frame's, which runs no script
// of its own, or the screen's); the result is looked for, without reading a layout, on every
// mutation of either document and at every animation frame; the interaction ends with the end of
// the rendering of the first frame that shows it (a message posted from that frame's
// requestAnimationFrame callbacks, which runs once its style, layout and paint are done). A result
// reached during a frame's callbacks (the editor runs its signal effects in one) is that frame's.
// Installs `window.galleyBench`.
/* global window, document, performance, requestAnimationFrame, MessageChannel, MutationObserver,
   PerformanceObserver, setTimeout, clearTimeout, queueMicrotask */
(() => {
  const PREVIEW = 'iframe[title="Preview"]';
  const MARK = 'data-galley-n';
  const now = () => performance.now();
  const frameElement = () => document.querySelector(PREVIEW);
  const frameDocument = () => frameElement()?.contentDocument ?? null;
  const tree = () => document.querySelector('[role="tree"]');

  /**
   * The end of the current frame's rendering: a message posted now (from a requestAnimationFrame
   * callback) runs once that frame's style, layout and paint are done.
   */
  const afterRendering = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve(now());
      };
      channel.port2.postMessage(null);
    });
  /** The end of the next frame's rendering. */
  const nextFrame = () =>
    new Promise((resolve) => requestAnimationFrame(() => resolve(afterRendering())));

  /** The element of the preview marked with this outline number. */
  const shownElement = (doc, n) => doc.querySelector(`[${MARK}="${n}"]`);
  const rowOf = (n) => tree()?.querySelector(`[role="treeitem"][data-node="${n}"]`) ?? null;
  const selectedRow = () =>
    tree()?.querySelector('[role="treeitem"][aria-selected="true"]') ?? null;
  /** The `#id` a tree row shows, or null. */
  const rowId = (row) => row?.querySelector('.id')?.textContent?.slice(1) ?? null;
  const near = (a, b) => Math.abs(a - b) < 0.5;

  /**
   * The overlay's selection box sits exactly on `box` (the element's, taken before the input: a
   * click does not move the page, and reading the box again would force a layout mid-measure).
   */
  function markOn(box) {
    const mark = document.querySelector('.overlay .mark-selected');
    if (!mark) return false;
    const style = mark.style;
    return (
      near(parseFloat(style.left), box.left) &&
      near(parseFloat(style.top), box.top) &&
      near(parseFloat(style.width), box.width) &&
      near(parseFloat(style.height), box.height)
    );
  }

  /**
   * Whether the screen shows what the interaction must lead to; none of these reads a layout, nor
   * the preview's marks (which the editor renumbers in idle time). `selected`: the tree's selected
   * row is element n, and the overlay's box is on it. `moved`: #x follows #y in the preview, and
   * the tree's selected row is #x. `removed`: #x is gone from the preview, #next is there, and the
   * tree's selected row is #next at n (x's old number). `restored`: #x is back in the preview
   * after #y, and the tree's row n is #x.
   */
  const conditions = {
    selected({ n }, { box }) {
      const row = selectedRow();
      return row?.dataset.node === String(n) && markOn(box);
    },
    moved({ x, y }) {
      const element = frameDocument()?.getElementById(x);
      if (!element || element.previousElementSibling?.id !== y) return false;
      return rowId(selectedRow()) === x;
    },
    removed({ x, n, next }) {
      const doc = frameDocument();
      if (!doc || doc.getElementById(x) || !doc.getElementById(next)) return false;
      const row = selectedRow();
      return row?.dataset.node === String(n) && rowId(row) === next;
    },
    restored({ x, n, y }) {
      const element = frameDocument()?.getElementById(x);
      if (!element || element.previousElementSibling?.id !== y) return false;
      return rowId(rowOf(n)) === x;
    },
  };

  let armed = null;
  /** Long Animation Frames (over 50 ms) as they come, for the breakdown of an interaction. */
  const longFrames = [];
  const longFrameObserver = new PerformanceObserver((list) =>
    longFrames.push(...list.getEntries()),
  );
  longFrameObserver.observe({ type: 'long-animation-frame' });

  /**
   * Arms the measure of one interaction: `event` ('click' or 'keydown') starts it wherever it is
   * dispatched (the frame's window or the screen's, capture phase, so before any listener of the
   * editor); `expect` names the condition that ends it. `result()` answers when it is shown.
   */
  function arm(event, expect, { key = null, timeoutMs = 10_000 } = {}) {
    if (armed) throw new Error('an interaction is already being measured');
    performance.clearResourceTimings();
    const check = conditions[expect.kind];
    const frameWindow = frameElement()?.contentWindow;
    if (!check || !frameWindow) throw new Error(`cannot measure ${expect.kind}`);
    const m = { start: null, handler: null, hold: null, checks: 0, polls: 0, late: 0 };
    // True from the start of a frame's animation callbacks to the end of its rendering: what
    // changes then (the editor defers some effects to requestAnimationFrame) shows in that frame.
    let frameOpen = false;
    const armedFrame = frameElement();
    // What the checks compare with, read now, while nothing is measured.
    const before = {};
    if (expect.kind === 'selected') {
      const element = shownElement(frameWindow.document, expect.n);
      if (!element) throw new Error(`no element @${expect.n} in the preview`);
      before.box = element.getBoundingClientRect();
    }
    let settle;
    const done = new Promise((resolve, reject) => (settle = { resolve, reject }));
    const windows = [window, frameWindow];
    const observer = new MutationObserver(() => test());
    let finished = false;
    const stop = () => {
      finished = true;
      observer.disconnect();
      for (const w of windows) w.removeEventListener(event, onEvent, true);
      clearTimeout(timer);
    };
    function onEvent(e) {
      if (m.start !== null || (key !== null && e.key !== key)) return;
      m.handler = now();
      // The event's own time (when the browser took the input), in this document's clock.
      const own = e.view.performance.timeOrigin + e.timeStamp - performance.timeOrigin;
      m.start = own <= m.handler && own > m.handler - 1000 ? own : m.handler;
      m.target = e.target?.getAttribute?.(MARK) ?? null;
      m.inFrame = e.view !== window;
      if (expect.kind === 'selected' && m.target !== String(expect.n)) {
        stop();
        const where = `${m.inFrame ? 'the preview' : 'the screen'}'s <${e.target?.localName}>`;
        settle.reject(
          new Error(`the click meant for @${expect.n} landed on ${where} @${m.target}`),
        );
        return;
      }
      queueMicrotask(() => test());
      requestAnimationFrame(poll);
    }
    function test() {
      if (finished || m.start === null || m.hold !== null) return;
      m.checks += 1;
      if (!check(expect, before)) return;
      m.hold = now();
      stop();
      // Held while a frame is being made: that frame shows it. Else the next one does.
      m.late = frameOpen ? m.polls - 1 : m.polls;
      const shown = frameOpen ? afterRendering() : nextFrame();
      void shown.then((painted) => {
        // For a trace of the run: the interaction as a User Timing measure.
        performance.measure(`galley-bench ${expect.kind}`, { start: m.start, end: painted });
        settle.resolve({ ...m, painted });
      });
    }
    /** Each frame after the input: registered before the editor's callbacks, so it runs first. */
    function poll() {
      if (finished) return;
      m.polls += 1;
      frameOpen = true;
      void afterRendering().then(() => (frameOpen = false));
      test();
      if (!finished) requestAnimationFrame(poll);
    }
    for (const w of windows) w.addEventListener(event, onEvent, true);
    const observe = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(document, observe);
    if (frameWindow.document) observer.observe(frameWindow.document, observe);
    const timer = setTimeout(() => {
      stop();
      settle.reject(
        new Error(
          `${expect.kind} ${JSON.stringify(expect)} not shown within ${timeoutMs} ms (${m.start === null ? 'no ' + event + ' seen' : m.checks + ' checks'}; event target @${m.target}` +
            `${frameElement() === armedFrame ? '' : '; the preview was loaded anew'})`,
        ),
      );
    }, timeoutMs);
    armed = done;
  }

  /**
   * The armed measure's times, relative to its input event (ms). `request`: the interaction sends
   * one, which may be answered after the result is shown: wait for it (up to 5 s).
   */
  async function result({ request = false } = {}) {
    if (!armed) throw new Error('nothing armed');
    const m = await armed.finally(() => (armed = null));
    // The editor's own requests started in between (Resource Timing of this document).
    const started = () =>
      performance
        .getEntriesByType('resource')
        .filter((r) => r.startTime >= m.start && r.startTime <= m.painted);
    for (let waited = 0; request && started().length === 0 && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const requests = started();
    return {
      requests: requests.map((r) => ({
        path: new URL(r.name).pathname,
        ms: r.responseEnd - r.startTime,
        bytes: r.decodedBodySize,
      })),
      span: { start: m.start, end: m.painted },
      work: m.hold - m.start,
      shown: m.painted - m.start,
      waited: m.handler - m.start,
      late: m.late,
    };
  }

  /**
   * What the long frames (Long Animation Frames, over 50 ms) within each span spent: scripts
   * (requestAnimationFrame callbacks included), the style and layout those scripts forced, and the
   * frames' own style, layout and paint after their scripts. Ask once the spans are over: the
   * browser reports a frame some time after it.
   */
  function longFramesIn(spans) {
    longFrames.push(...longFrameObserver.takeRecords());
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    return spans.map(({ start, end }) => {
      const slow = longFrames.filter((f) => f.startTime < end && f.startTime + f.duration > start);
      const scripts = slow.flatMap((f) => f.scripts);
      return {
        frames: slow.length,
        script: sum(scripts.map((s) => s.duration)),
        forced: sum(scripts.map((s) => s.forcedStyleAndLayoutDuration)),
        render: sum(
          slow
            .filter((f) => f.styleAndLayoutStart > 0)
            .map((f) => f.startTime + f.duration - f.styleAndLayoutStart),
        ),
        total: sum(slow.map((f) => f.duration)),
      };
    });
  }

  /**
   * The floor: an empty frame, timed as an interaction is (from a moment taken at random within a
   * frame to the end of the next frame's rendering), and an empty double rAF from the same moment.
   */
  async function emptyFrame() {
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 17));
    const start = now();
    const single = (await nextFrame()) - start;
    const start2 = now();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return { next: single, double: now() - start2 };
  }

  /**
   * Where to click element n, in the screen's viewport: the centre of its first box (or `offset`
   * from its top left corner). When it is out of view (or covered), the frame and then the screen
   * are scrolled to bring it to their middle, and two frames pass (what follows a scroll is over).
   */
  async function pointAt(n, offset = null) {
    const frame = frameElement();
    const element = shownElement(frame.contentDocument, n);
    if (!element) throw new Error(`no element @${n} in the preview`);
    const place = () => {
      const outer = frame.getBoundingClientRect();
      const scale = outer.width / frame.offsetWidth;
      const box = element.getClientRects()[0] ?? element.getBoundingClientRect();
      const x = offset ? box.left + offset.x : box.left + box.width / 2;
      const y = offset ? box.top + offset.y : box.top + box.height / 2;
      return {
        inner: { x, y },
        x: outer.left + (frame.clientLeft + x) * scale,
        y: outer.top + (frame.clientTop + y) * scale,
      };
    };
    const view = frame.contentWindow;
    // On the element in the preview, and on the preview in the screen (nothing drawn over it).
    const clear = (at) =>
      at.inner.y >= 0 &&
      at.inner.y < view.innerHeight &&
      document.elementFromPoint(at.x, at.y) === frame;
    let at = place();
    if (!clear(at)) {
      // The point to the middle of the preview's view, then the preview's to the screen's.
      view.scrollBy({ top: at.inner.y - view.innerHeight / 2, behavior: 'instant' });
      at = place();
      window.scrollBy({ top: at.y - window.innerHeight / 2, behavior: 'instant' });
      await nextFrame();
      await nextFrame();
      at = place();
      if (!clear(at)) throw new Error(`@${n} cannot be brought into view`);
    }
    const hit = frame.contentDocument.elementFromPoint(at.inner.x, at.inner.y);
    const hitMark = hit?.closest(`[${MARK}]`)?.getAttribute(MARK) ?? null;
    if (hitMark !== String(n)) throw new Error(`a click on @${n} would land on @${hitMark}`);
    return { x: at.x, y: at.y };
  }

  /** Answers after `count` frames. */
  async function frames(count = 2) {
    for (let i = 0; i < count; i++) await nextFrame();
  }

  /** Answers once no long task has run for `ms` (the editor is idle), or after `timeoutMs`. */
  function quiet(ms = 500, timeoutMs = 30_000) {
    return new Promise((resolve) => {
      const started = now();
      let last = started;
      const observer = new PerformanceObserver((list) => {
        for (const task of list.getEntries()) last = Math.max(last, task.startTime + task.duration);
      });
      observer.observe({ type: 'longtask' });
      const tick = () => {
        if (now() - last < ms && now() - started < timeoutMs) return setTimeout(tick, 50);
        observer.disconnect();
        resolve(now() - started);
      };
      setTimeout(tick, 50);
    });
  }

  /** The ids of element n of the preview and of the two after it (null when not shown). */
  function describe(n) {
    const element = shownElement(frameDocument(), n);
    if (!element) return null;
    const next = element.nextElementSibling;
    return {
      id: element.id || null,
      next: next?.id || null,
      nextNext: next?.nextElementSibling?.id || null,
    };
  }

  /** The outline number of the preview's element with this id. */
  const numberOf = (id) => Number(frameDocument()?.getElementById(id)?.getAttribute(MARK));

  /** The outline numbers of the preview's elements that match a selector. */
  const numbers = (selector) =>
    [...(frameDocument()?.querySelectorAll(selector) ?? [])].map((e) =>
      Number(e.getAttribute(MARK)),
    );

  window.galleyBench = {
    arm,
    result,
    longFramesIn,
    emptyFrame,
    pointAt,
    frames,
    quiet,
    describe,
    numberOf,
    numbers,
  };
})();
