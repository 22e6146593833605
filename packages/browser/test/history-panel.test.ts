import { h } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../src/screen/editor/history-panel.js';
import { choose, HistoryPanel, pageRevisions } from '../src/screen/editor/history-panel.js';
import { DiffView } from '../src/screen/editor/diff-view.js';
import { historyCss } from '../src/screen/editor/history.css.js';
import type { Rendered } from './render-helpers.js';
import { render } from './render-helpers.js';

const home = { id: 'p-home', file: 'index.html' };
const about = { id: 'p-about', file: 'about.html' };
const entry = (
  revision: number,
  kind: HistoryEntry['kind'],
  at: string,
  more: Partial<HistoryEntry> = {},
): HistoryEntry => ({
  revision,
  kind,
  summary: `${kind} ${revision}`,
  by: { name: 'Ann' },
  at,
  ...more,
});

const entries: HistoryEntry[] = [
  entry(1, 'create', '2026-03-01T09:00:00+00:00', { summary: 'Project created' }),
  entry(2, 'save', '2026-03-09T08:00:00+00:00', { page: home, by: { name: 'Bea' } }),
  entry(3, 'save', '2026-03-09T09:00:00+00:00', { page: about }),
  entry(4, 'title', '2026-03-10T09:00:00+00:00', { summary: 'Renamed' }),
  entry(6, 'undo', '2026-03-10T11:55:00+00:00', { page: home, summary: 'Undid revision 5' }),
  entry(5, 'save', '2026-03-10T11:00:00+00:00', { page: home, summary: 'Saved <b>bold</b>' }),
  entry(7, 'folder', '2026-03-10T11:59:30+00:00', { summary: 'Folder replaced' }),
];
const now = new Date('2026-03-10T12:00:00+00:00');

describe('pageRevisions', () => {
  it('keeps this page’s entries and the project’s creations and folders, newest first', () => {
    expect(pageRevisions(entries, home.id).map((e) => e.revision)).toEqual([7, 6, 5, 2, 1]);
    expect(pageRevisions(entries, about.id).map((e) => e.revision)).toEqual([7, 3, 1]);
  });
});

describe('choose', () => {
  it('holds two revisions at most; a third takes the place of the earlier choice', () => {
    expect(choose([], 5, true)).toEqual([5]);
    expect(choose([5], 2, true)).toEqual([5, 2]);
    expect(choose([5, 2], 7, true)).toEqual([2, 7]);
    expect(choose([5, 2], 5, false)).toEqual([2]);
    expect(choose([5], 5, true)).toEqual([5]);
    expect(choose([], 5, false)).toEqual([]);
  });
});

describe('HistoryPanel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());

  const panel = (props: Partial<Parameters<typeof HistoryPanel>[0]> = {}) =>
    render(
      h(HistoryPanel, {
        entries,
        pageId: home.id,
        current: 6,
        onView: () => undefined,
        onCompare: () => undefined,
        ...props,
      }),
    );
  const rows = (view: Rendered) => view.one('tbody').all('tr');

  it('is a table of this page’s revisions with a caption and column headers', () => {
    const view = panel();
    const table = view.one('table.history');
    expect(table.one('caption').text).toBe('Saved revisions of this page, newest first');
    expect(table.all('th').map((th) => [th.text, th.attribute('scope')])).toEqual([
      ['Compare', 'col'],
      ['Revision', 'col'],
      ['Change', 'col'],
      ['By', 'col'],
      ['When', 'col'],
      ['Actions', 'col'],
    ]);
    expect(rows(view).map((tr) => tr.all('td')[1]!.text)).toEqual([
      '7',
      '6 current',
      '5',
      '2',
      '1',
    ]);
  });

  it('says who and what, as text (never markup)', () => {
    const [, six, five, two] = rows(panel());
    expect(
      six!
        .all('td')
        .map((td) => td.text)
        .slice(2, 4),
    ).toEqual(['Undo Undid revision 5', 'Ann']);
    expect(five!.one('.history-summary').text).toBe('Saved <b>bold</b>');
    expect(five!.all('b')).toEqual([]);
    expect(two!.all('td')[3]!.text).toBe('Bea');
  });

  it('says when in a <time datetime> element, relative to now, with the full time as title', () => {
    const times = panel().all('time');
    expect(times.map((t) => [t.attribute('datetime'), t.text])).toEqual([
      ['2026-03-10T11:59:30+00:00', 'just now'],
      ['2026-03-10T11:55:00+00:00', '5 minutes ago'],
      ['2026-03-10T11:00:00+00:00', '1 hour ago'],
      ['2026-03-09T08:00:00+00:00', 'yesterday'],
      ['2026-03-01T09:00:00+00:00', 'last week'],
    ]);
    expect(times[0]!.attribute('title')).toMatch(/2026/);
  });

  it('marks the revision shown now', () => {
    const current = rows(panel()).filter((tr) => tr.attribute('aria-current') === 'true');
    expect(current.map((tr) => [tr.classes, tr.one('.history-badge').text])).toEqual([
      [['history-current'], 'current'],
    ]);
  });

  it('has a View button and a labelled check box for every revision', () => {
    for (const [i, tr] of rows(panel()).entries()) {
      const revision = [7, 6, 5, 2, 1][i]!;
      const button = tr.one('button');
      expect([button.text, button.attribute('type')]).toEqual([
        `View revision ${revision}`,
        'button',
      ]);
      const label = tr.one('label');
      expect(label.one('input').attribute('type')).toBe('checkbox');
      expect(label.text).toBe(`Compare revision ${revision}`);
    }
  });

  it('offers Compare once two are chosen, and says what is chosen', () => {
    const compare = panel().one('.history-compare');
    expect(compare.one('p').text).toBe('Choose two revisions to compare.');
    expect(compare.one('p').attribute('aria-live')).toBe('polite');
    expect(compare.one('button').text).toBe('Compare');
    expect(compare.one('button').attribute('disabled')).toBe('');
  });

  it('says so when the page has no saved revision', () => {
    const view = panel({
      entries: [entry(3, 'save', '2026-03-09T09:00:00+00:00', { page: about })],
    });
    expect(view.all('table')).toEqual([]);
    expect(view.one('p').text).toBe('This page has no saved revisions yet.');
  });
});

describe('historyCss', () => {
  it('styles every class the panel and the diff use (the sheet’s own classes aside)', () => {
    const panel = render(
      h(HistoryPanel, { entries, pageId: home.id, current: 6, onView() {}, onCompare() {} }),
    );
    const lines = Array.from({ length: 12 }, (_, i) => `<p>${i}</p>`).join('');
    const diff = render(
      h(DiffView, {
        before: { revision: 1, html: lines },
        after: { revision: 2, html: '<p>changed</p>' },
      }),
    );
    const html = panel.html + diff.html;
    const used = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(' ')));
    // The screen's sheet has these; `history-summary` only names the summary for scripts.
    const elsewhere = new Set(['sr-only', 'stack', 'hint', 'history-summary']);
    const missing = [...used].filter((c) => !elsewhere.has(c) && !historyCss.includes(`.${c}`));
    expect(missing).toEqual([]);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
