// The editor's pure parts in Node: the outline rows the tree shows, the device frames, the
// selection that follows its element, and links relative to the page.
import { describe, expect, it } from 'vitest';
import * as galley from '@galley/browser';
import { Draft } from '@galley/core';
import { visibleRows } from '../src/screen/editor/tree-rows.js';
import { devicesFor, scaleToFit } from '../src/screen/editor/devices.js';
import { EditorModel, resolveReference } from '../src/screen/editor/model.js';
import { relativeTo } from '../src/screen/editor/files.js';

// The screen reads the library from the global `Galley` (galley.min.js); so do these tests.
(globalThis as unknown as { Galley: typeof galley }).Galley = galley;

function open(html: string): Draft {
  const opened = Draft.open(html);
  if (!opened.ok) throw new Error('cannot open');
  return opened.draft;
}

const PAGE =
  '<body><header id="h"><h1>T</h1><nav><a>1</a><a>2</a></nav></header><main><p>x</p></main><footer></footer></body>';

describe('outline rows', () => {
  it('numbers levels, sibling counts and places as the ARIA tree pattern wants', () => {
    const rows = visibleRows(open(PAGE), new Set());
    expect(rows.map((r) => [r.entry.tag, r.level, r.position, r.setSize, r.hasChildren])).toEqual([
      ['header', 1, 1, 3, true],
      ['h1', 2, 1, 2, false],
      ['nav', 2, 2, 2, true],
      ['a', 3, 1, 2, false],
      ['a', 3, 2, 2, false],
      ['main', 1, 2, 3, true],
      ['p', 2, 1, 1, false],
      ['footer', 1, 3, 3, false],
    ]);
  });

  it('hides what a closed element holds, and keeps it closed while numbers shift', () => {
    const draft = open(PAGE);
    const header = draft.elements.at(1)!;
    const closed = new Set([header]);
    expect(visibleRows(draft, closed).map((r) => r.entry.tag)).toEqual([
      'header',
      'main',
      'p',
      'footer',
    ]);
    expect(visibleRows(draft, closed)[0]!.expanded).toBe(false);
    draft.apply({ kind: 'insert', parent: '@0', before: '@1', html: '<hr>' });
    expect(visibleRows(draft, closed).map((r) => r.entry.tag)).toEqual([
      'hr',
      'header',
      'main',
      'p',
      'footer',
    ]);
  });
});

describe('device frames', () => {
  it('offers desktop, tablet and phone for the web, and a medium’s own canvas otherwise', () => {
    expect(devicesFor({ id: 'web', version: 1 }).map((d) => d.id)).toEqual([
      'desktop',
      'tablet',
      'phone',
    ]);
    expect(devicesFor({ id: 'banner', version: 1 })).toEqual([
      { id: 'banner', label: 'Banner 300×250', width: 300, height: 250 },
    ]);
    expect(devicesFor({ id: 'signage', version: 1 })[0]).toMatchObject({
      width: 1920,
      height: 1080,
    });
  });

  it('scales a frame down to fit, never up', () => {
    const signage = devicesFor({ id: 'signage', version: 1 })[0]!;
    expect(scaleToFit(signage, 960)).toBe(0.5);
    expect(scaleToFit(devicesFor({ id: 'banner', version: 1 })[0]!, 960)).toBe(1);
    expect(scaleToFit(devicesFor({ id: 'web', version: 1 })[0]!, 300)).toBe(1);
  });
});

describe('the selection', () => {
  it('follows its element through changes, and is dropped when the element goes', () => {
    const model = new EditorModel();
    const draft = open(PAGE);
    model.readOnly.value = { doc: draft };
    model.changed();
    const p = draft.elements.at(7)!;
    model.selection.value = p;
    draft.apply({ kind: 'insert', parent: '@0', before: '@1', html: '<hr>' });
    model.changed();
    expect(model.selection.value).toBe(p);
    expect(model.shown.value!.elements.numberOf(p)).toBe(8);
    draft.apply({ kind: 'remove', target: '@8' });
    model.changed();
    expect(model.selection.value).toBeNull();
  });

  it('moves to the same element of a new document only when it evidently is the same', () => {
    const model = new EditorModel();
    model.readOnly.value = { doc: open(PAGE) };
    model.changed();
    model.selection.value = model.shown.value!.elements.at(1)!;
    model.readOnly.value = { doc: open(PAGE) };
    model.changed();
    expect(model.shown.value!.elements.numberOf(model.selection.value)).toBe(1);
    model.readOnly.value = { doc: open(PAGE.replace('id="h"', 'id="other"')) };
    model.changed();
    expect(model.selection.value).toBeNull();
  });

  it('resolves a violation’s #id or @n in the version shown', () => {
    const draft = open('<body><p id="a">1</p><p id="b">2</p></body>');
    expect(resolveReference(draft, '#b')).toBe(draft.elements.at(2));
    expect(resolveReference(draft, '@1')).toBe(draft.elements.at(1));
    expect(resolveReference(draft, '#none')).toBeNull();
    expect(resolveReference(draft, undefined)).toBeNull();
  });
});

describe('links to the project’s files', () => {
  it('are relative to the page’s own folder', () => {
    expect(relativeTo('index.html', 'img/a.png')).toBe('img/a.png');
    expect(relativeTo('blog/post.html', 'img/a.png')).toBe('../img/a.png');
    expect(relativeTo('blog/post.html', 'blog/b.html')).toBe('b.html');
    expect(relativeTo('a/b/c.html', 'a/x.png')).toBe('../x.png');
  });
});
