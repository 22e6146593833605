// Mounts the history panel and the diff view on a blank page, for the keyboard tests in Chromium
// (history-keyboard.test.ts bundles this file). What the callbacks receive goes to `window.calls`.
import { render } from 'preact';
import { DiffView } from '../../src/screen/editor/diff-view.js';
import type { HistoryEntry } from '../../src/screen/editor/history-panel.js';
import { HistoryPanel } from '../../src/screen/editor/history-panel.js';

const calls: unknown[][] = [];
(window as unknown as { calls: unknown[][] }).calls = calls;

const page = { id: 'p1', file: 'index.html' };
const entries: HistoryEntry[] = [2, 3, 5, 8].map((revision) => ({
  revision,
  kind: 'save',
  page,
  summary: `Saved ${revision}`,
  by: { name: 'Ann' },
  at: new Date(Date.now() - revision * 60_000).toISOString().replace('Z', '+00:00'),
}));

render(
  <HistoryPanel
    entries={entries}
    pageId="p1"
    current={8}
    onView={(revision) => calls.push(['view', revision])}
    onCompare={(a, b) => calls.push(['compare', a, b])}
  />,
  document.getElementById('panel')!,
);

const lines = (changed: string) =>
  Array.from({ length: 20 }, (_, i) => (i === 15 ? changed : `<p>Line ${i + 1}</p>`)).join('\n');
render(
  <DiffView
    before={{ revision: 2, html: lines('<p>Old</p>') }}
    after={{ revision: 8, html: lines('<p>New</p>') }}
  />,
  document.getElementById('diff')!,
);
