// The editor's preview draws each change in place (frame-patch.ts) instead of the whole body anew.
// Here, in Chromium, random operations, undos and redos run on drafts of several pages; after
// each, the preview's body must be exactly what the browser builds from the whole marked page,
// whether the change was drawn in place or (where it cannot be, faithfully) anew.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as library from '@galley/browser';
import type * as framePatch from '../src/screen/editor/frame-patch.js';
import { bundleBrowser, common } from '../scripts/bundle.js';
import { launchChromium, whyNoChromium } from './chromium.js';

interface Run {
  /** The most elements put into the page by one move (moved or new). */
  movedElements?: number;
  steps: number;
  patched: number;
  redrawn: number;
  mismatches: { step: number; what: string; shown: string; expected: string }[];
  faithfulAtStart: boolean;
}

/** What `installOpenInFrame` puts on the test page. */
interface InFrame {
  openInFrame(html: string): Promise<{
    draft: library.Draft;
    view: library.ElementView;
    doc: Document;
    shown: ReturnType<typeof framePatch.mapShown>;
  }>;
}

/** Runs in Chromium: opens a draft of the page and shows it, marked, in a frame without scripts. */
function installOpenInFrame(): void {
  const G = (globalThis as unknown as { Galley: typeof library }).Galley;
  const P = (globalThis as unknown as { FramePatch: typeof framePatch }).FramePatch;
  (globalThis as unknown as InFrame).openInFrame = async (html) => {
    const opened = G.Draft.open(html);
    if (!opened.ok) throw new Error('the page did not open');
    const draft = opened.draft;
    const view = draft.elements;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-same-origin');
    document.body.replaceChildren(frame);
    const first = view.marked('document');
    await new Promise((resolve) => {
      frame.addEventListener('load', resolve, { once: true });
      frame.srcdoc = first.html;
    });
    const doc = frame.contentDocument!;
    return { draft, view, doc, shown: P.mapShown(doc, first) };
  };
}

/** Runs in Chromium: random changes to a draft, each drawn into a frame and compared. */
async function runChanges(input: { html: string; seed: number; steps: number }): Promise<Run> {
  const P = (globalThis as unknown as { FramePatch: typeof framePatch }).FramePatch;
  let state = input.seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const opened = await (globalThis as unknown as InFrame).openInFrame(input.html);
  const { draft, view, doc } = opened;
  let shown = opened.shown;
  const faithfulAtStart = shown.faithful;
  let mark = view.changeMark;

  const expected = () => {
    const marked = view.marked('document');
    const reference = new DOMParser().parseFromString(marked.html, 'text/html');
    P.mapShown(reference, marked);
    return reference.body.innerHTML;
  };
  const fragments = [
    '<p id="new">A <em>new</em> paragraph</p>',
    'loose text',
    '<section><h2>Title</h2><ul><li>one</li><li>two</li></ul></section><!-- note -->',
    '<tr><td>cell</td><td>cell</td></tr>',
    '<li>item</li>',
    '<img src="x.png" alt="">',
    '<a href="#top">link</a> and text',
    '<svg viewBox="0 0 10 10"><rect width="5" height="5"></rect></svg>',
  ];
  const run: Run = { steps: 0, patched: 0, redrawn: 0, mismatches: [], faithfulAtStart };
  for (let step = 0; run.steps < input.steps && step < input.steps * 20; step++) {
    const count = view.inOrder().length;
    const at = () => `@${Math.floor(random() * count)}`;
    const kind = pick([
      'insert',
      'move',
      'remove',
      'duplicate',
      'replace',
      'swap',
      'undo',
      'undo',
      'redo',
    ] as const);
    let what: string;
    let done: boolean;
    if (kind === 'undo' || kind === 'redo') {
      what = kind;
      done = (kind === 'undo' ? draft.undo() : draft.redo()).ok;
    } else {
      const operation =
        kind === 'insert'
          ? { kind, parent: at(), html: pick(fragments) }
          : kind === 'move'
            ? { kind, target: at(), parent: at() }
            : kind === 'replace' || kind === 'swap'
              ? { kind, target: at(), html: pick(fragments) }
              : { kind, target: at() };
      what = JSON.stringify(operation);
      done = draft.apply(operation).ok;
    }
    if (!done) continue;
    run.steps += 1;
    const changes = shown.faithful ? view.changesSince(mark) : null;
    const patched = changes && P.patchPreview(doc, shown, view, changes);
    if (patched) {
      run.patched += 1;
      // The marks are brought up to date in idle time; here at once, to compare them.
      P.renumber(shown, view.inOrder(), changes.from, () => true);
    } else {
      run.redrawn += 1;
      const marked = view.marked('body');
      doc.body.innerHTML = marked.html;
      shown = P.mapShown(doc, marked);
    }
    mark = view.changeMark;
    const want = expected();
    const got = doc.body.innerHTML;
    if (got !== want && run.mismatches.length < 3) {
      let at = 0;
      while (got[at] === want[at]) at++;
      const around = (text: string) => text.slice(Math.max(0, at - 200), at + 200);
      run.mismatches.push({ step, what, shown: around(got), expected: around(want) });
    }
    // Drawn faithfully, every element the draft has is found by its handle, at its own number.
    const elements = shown.faithful ? view.inOrder() : [];
    elements.forEach((handle, n) => {
      const element = shown.byHandle.get(handle);
      const number = n === 0 ? null : String(n);
      if (!element?.isConnected || (n > 0 && element.getAttribute('data-galley-n') !== number))
        if (run.mismatches.length < 3)
          run.mismatches.push({ step, what, shown: `@${n} not found by its handle`, expected: '' });
    });
  }
  return run;
}

/** Runs in Chromium: the edits a person makes on a page of sections, each drawn and compared. */
async function runEdits(html: string): Promise<Run> {
  const P = (globalThis as unknown as { FramePatch: typeof framePatch }).FramePatch;
  const { draft, view, doc, shown } = await (globalThis as unknown as InFrame).openInFrame(html);
  const run: Run = {
    steps: 0,
    patched: 0,
    redrawn: 0,
    mismatches: [],
    faithfulAtStart: shown.faithful,
  };
  let mark = view.changeMark;
  let added = 0;
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node.nodeType === 1) added += 1;
  });
  observer.observe(doc.body, { childList: true, subtree: true });
  run.movedElements = 0;
  const ref = (id: string) => {
    const number = view.numberOf(
      draft.elements.at(draft.outline().find((e) => e.id === id)!.node)!,
    );
    return `@${number}`;
  };
  const step = (what: string, done: boolean) => {
    if (!done) throw new Error(`refused: ${what}`);
    run.steps += 1;
    const changes = view.changesSince(mark)!;
    const patched = P.patchPreview(doc, shown, view, changes);
    if (patched) {
      run.patched += 1;
      // The marks are brought up to date in idle time; here at once, to compare them.
      P.renumber(shown, view.inOrder(), changes.from, () => true);
    }
    mark = view.changeMark;
    added = 0;
    observer
      .takeRecords()
      .forEach((record) =>
        record.addedNodes.forEach((node) => (added += node.nodeType === 1 ? 1 : 0)),
      );
    if (what === 'move down') run.movedElements = Math.max(run.movedElements!, added);
    const reference = new DOMParser().parseFromString(view.marked('document').html, 'text/html');
    P.mapShown(reference, view.marked('document'));
    const [got, want] = [doc.body.innerHTML, reference.body.innerHTML];
    let at = 0;
    while (at < got.length && got[at] === want[at]) at++;
    const around = (text: string) => text.slice(Math.max(0, at - 150), at + 150);
    if (got !== want && run.mismatches.length < 3)
      run.mismatches.push({ step: run.steps, what, shown: around(got), expected: around(want) });
  };
  for (let s = 1; s < 10; s += 2) {
    const before = ref(`s-${s + 2}`);
    step(
      'move down',
      draft.apply({ kind: 'move', target: ref(`s-${s}`), parent: ref('main'), before }).ok,
    );
    step('remove', draft.apply({ kind: 'remove', target: ref(`p-${s}`) }).ok);
    step('undo', draft.undo().ok);
    step('undo', draft.undo().ok);
    step('redo', draft.redo().ok);
    step(
      'insert',
      draft.apply({ kind: 'insert', parent: ref(`s-${s}`), html: '<p>New <b>text</b></p>' }).ok,
    );
    step(
      'swap',
      draft.apply({ kind: 'swap', target: ref(`h-${s}`), html: 'A <em>new</em> title' }).ok,
    );
    step(
      'replace',
      draft.apply({
        kind: 'replace',
        target: ref(`p-${s}`),
        html: '<p id="p-x" class="lead">Replaced</p>',
      }).ok,
    );
    step('duplicate', draft.apply({ kind: 'duplicate', target: ref(`s-${s}`) }).ok);
    step(
      'insert row',
      draft.apply({ kind: 'insert', parent: `${ref(`s-${s}`)}`, html: '<ul><li>x</li></ul>' }).ok,
    );
  }
  return run;
}

function page(body: string): string {
  return `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
}

const sections = Array.from(
  { length: 12 },
  (_, s) => `<section id="s-${s}"><h2 id="h-${s}">Part ${s}</h2>
<p id="p-${s}">Text <a href="#s-1">with a link</a> and <em>emphasis</em>.</p>
<figure><img src="photo.png" alt="photo" width="32" height="20"><figcaption>Caption ${s}</figcaption></figure>
<ul><li>one</li><li>two <strong>bold</strong></li></ul>
<table><caption>Table ${s}</caption><thead><tr><th>a</th><th>b</th></tr></thead>
<tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody></table>
<!-- a comment -->
</section>`,
).join('\n');

const PAGES = {
  sections: page(
    `<header><nav><a href="#s-1">One</a></nav></header><main id="main">${sections}</main>`,
  ),
  mixed: page(
    'Text at the top <div id="a">in <b>a</b> div<p>and a paragraph</p></div><svg viewBox="0 0 4 4"><g><circle r="1"></circle></g></svg><select><option>x</option><option>y</option></select><dl><dt>term</dt><dd>definition</dd></dl><pre>  kept\n  spacing</pre><textarea>raw &lt; text</textarea>',
  ),
  /** The browser puts a <tbody> in that the draft does not have: never drawn in place. */
  loose: page('<table><tr><td>a</td></tr><tr><td>b</td></tr></table><p>after</p>'),
};

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('the preview drawn in place, in Chromium', () => {
  let dist: string;
  let server: Server;
  let browser: Browser;
  let tab: Page;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'galley-frame-patch-'));
    await bundleBrowser({ outDir: dist });
    await build({
      ...common,
      stdin: {
        contents:
          "import * as patch from './src/screen/editor/frame-patch.ts'; globalThis.FramePatch = patch;",
        resolveDir: join(import.meta.dirname, '..'),
        loader: 'ts',
      },
      format: 'iife',
      write: true,
      outfile: join(dist, 'frame-patch.js'),
      logLevel: 'error',
    });
    server = createServer((req, res) => {
      void (async () => {
        if (req.url === '/')
          res
            .setHeader('Content-Type', 'text/html')
            .end(
              '<!doctype html><script src="/galley.min.js"></script><script src="/frame-patch.js"></script><body></body>',
            );
        else if (req.url === '/galley.min.js' || req.url === '/frame-patch.js')
          res
            .setHeader('Content-Type', 'text/javascript')
            .end(await readFile(join(dist, req.url.slice(1))));
        else res.writeHead(404).end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await tab.evaluate(installOpenInFrame);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await rm(dist, { recursive: true, force: true });
  });

  it('shows exactly the whole page drawn anew after every change of a page of sections', async () => {
    for (const seed of [1, 2, 3]) {
      const run = await tab.evaluate(runChanges, { html: PAGES.sections, seed, steps: 60 });
      expect(run.mismatches).toEqual([]);
      expect(run.faithfulAtStart).toBe(true);
      expect(run.steps).toBe(60);
      expect(run.patched).toBeGreaterThan(0);
    }
  });

  it('draws every edit a person makes on a page of sections in place', async () => {
    const run = await tab.evaluate(runEdits, PAGES.sections);
    expect(run.mismatches).toEqual([]);
    expect(run.steps).toBe(50);
    expect(run.patched).toBe(50);
    // A section moved down is the one element put back into the page; its siblings stay.
    expect(run.movedElements).toBe(1);
  });

  it('shows text, comments, SVG, select options and raw text as the whole page would', async () => {
    for (const seed of [4, 5, 6]) {
      const run = await tab.evaluate(runChanges, { html: PAGES.mixed, seed, steps: 60 });
      expect(run.mismatches).toEqual([]);
      expect(run.faithfulAtStart).toBe(true);
      expect(run.patched).toBeGreaterThan(0);
    }
  });

  it('draws anew, never in place, a page the browser builds otherwise than the draft', async () => {
    const run = await tab.evaluate(runChanges, { html: PAGES.loose, seed: 7, steps: 20 });
    expect(run.faithfulAtStart).toBe(false);
    expect(run.mismatches).toEqual([]);
    expect(run.patched).toBe(0);
  });
});
