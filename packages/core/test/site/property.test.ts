import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFolder, convertSite, siteCodes } from '@galley/core';
import { png } from './helpers.js';

// Random plain sites with hostile names (spaces, case, accents, URL syntax, scripts other than
// Latin), references in every form a page or style sheet writes them, links to missing pages,
// titles missing, ids repeated. Whatever the site, a successful conversion passes every folder
// check; a failed one speaks only in site.* codes.

const jpeg = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  ),
  (c) => c.charCodeAt(0),
);
const encoder = new TextEncoder();
const contentOf: Record<string, Uint8Array> = {
  png,
  PNG: png,
  jpg: jpeg,
  svg: encoder.encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'),
  js: encoder.encode('console.log(1);'),
  txt: encoder.encode('hello'),
  docx: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]),
  '': encoder.encode('no extension'),
};

const segment = fc
  .string({
    unit: fc.constantFrom(...'abcAB09 -_.é\u0065\u0301Ü()%&#?\'"ß日+,'.split('')),
    minLength: 1,
    maxLength: 6,
  })
  .filter((s) => s !== '.' && s !== '..' && s.trim() !== '');
const extension = fc.constantFrom(
  'html',
  'htm',
  'HTML',
  'css',
  'png',
  'PNG',
  'jpg',
  'svg',
  'js',
  'txt',
  'docx',
  '',
);
const filePath = fc
  .tuple(fc.array(segment, { maxLength: 2 }), segment, extension)
  .map(([dirs, base, ext]) => [...dirs, ext === '' ? base : `${base}.${ext}`].join('/'));

type RefKind = 'a' | 'area' | 'img' | 'srcset' | 'stylesheet' | 'script' | 'style' | 'css';
interface Ref {
  readonly target: string;
  readonly form: 'relative' | 'absolute' | 'encoded' | 'upper' | 'folder';
  readonly suffix: string;
  readonly kind: RefKind;
}

function relative(from: string, to: string): string {
  const fromDirs = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (
    common < fromDirs.length &&
    common < toParts.length - 1 &&
    fromDirs[common] === toParts[common]
  )
    common++;
  return '../'.repeat(fromDirs.length - common) + toParts.slice(common).join('/');
}

function urlFor(from: string, ref: Ref): string {
  if (/^https?:/.test(ref.target)) return ref.target;
  const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/');
  let url: string;
  switch (ref.form) {
    case 'absolute':
      url = `/${encode(ref.target)}`;
      break;
    case 'encoded':
      url = encode(relative(from, ref.target));
      break;
    case 'upper':
      url = relative(from, ref.target).toUpperCase();
      break;
    case 'folder':
      url = relative(from, ref.target).replace(/index\.html$/, '');
      break;
    default:
      url = relative(from, ref.target);
  }
  // A raw `#` or `?` in a name would start the fragment: those forms need the encoding.
  if (/[#?%]/.test(ref.target) && ref.form !== 'encoded' && ref.form !== 'absolute')
    url = encode(relative(from, ref.target));
  return url + ref.suffix;
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const cssUrl = (from: string, ref: Ref) =>
  `url("${urlFor(from, { ...ref, form: ref.form === 'upper' ? 'upper' : 'encoded' }).replace(/"/g, '%22')}")`;

function html(from: string, ref: Ref): string {
  const url = attr(urlFor(from, ref));
  switch (ref.kind) {
    case 'a':
      return `<a href="${url}">link <b>text</b></a>`;
    case 'area':
      return `<map name="m"><area href="${url}" alt="x"></map>`;
    case 'img':
      return `<img src="${url}" alt="">`;
    case 'srcset':
      return `<img alt="" srcset="${attr(urlFor(from, { ...ref, form: 'encoded' }))} 2x">`;
    case 'stylesheet':
      return `<link rel="stylesheet" href="${url}">`;
    case 'script':
      return `<script src="${url}"></script>`;
    case 'style':
      return `<div style="background: ${attr(cssUrl(from, ref))}">x</div>`;
    case 'css':
      return `<style>p { background: ${cssUrl(from, ref)} }</style>`;
  }
}

const site = fc
  .uniqueArray(filePath, {
    minLength: 1,
    maxLength: 8,
    selector: (p) => p.normalize('NFC').toLowerCase(),
  })
  .chain((paths) => {
    const all = ['index.html', ...paths.filter((p) => p.toLowerCase() !== 'index.html')];
    const ref: fc.Arbitrary<Ref> = fc.record({
      target: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...all) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('missing.html', 'gone/page.htm', 'https://example.org/x'),
        },
      ),
      form: fc.constantFrom('relative', 'absolute', 'encoded', 'upper', 'folder'),
      suffix: fc.constantFrom('', '?v=1', '#top'),
      kind: fc.constantFrom(
        'a',
        'a',
        'area',
        'img',
        'srcset',
        'stylesheet',
        'script',
        'style',
        'css',
      ),
    });
    const page = fc.record({
      title: fc.option(fc.constantFrom('Home', ' ', 'A &amp; B', '<b>x</b>')),
      h1: fc.option(fc.constantFrom('Welcome', '')),
      ids: fc.array(fc.constantFrom('a', 'b', 'a-2'), { maxLength: 4 }),
      refs: fc.array(ref, { maxLength: 5 }),
    });
    return fc.tuple(
      fc.constant(all),
      fc.array(page, { minLength: all.length, maxLength: all.length }),
      fc.array(ref, { minLength: all.length, maxLength: all.length }),
    );
  })
  .map(([paths, pages, cssRefs]) => {
    const folder = new Map<string, Uint8Array>();
    paths.forEach((path, i) => {
      const ext = /\.([^./]*)$/.exec(path)?.[1] ?? '';
      const p = pages[i]!;
      if (/^html?$/i.test(ext)) {
        const title = p.title === null ? '' : `<title>${p.title}</title>`;
        const h1 = p.h1 === null ? '' : `<h1>${p.h1}</h1>`;
        const ids = p.ids.map((id) => `<span id="${id}">${id}</span>`).join('');
        const body = p.refs.map((r) => html(path, r)).join('\n');
        folder.set(
          path,
          encoder.encode(
            `<!doctype html><html><head>${title}</head><body>${h1}${ids}\n${body}</body></html>`,
          ),
        );
      } else if (ext === 'css') {
        folder.set(
          path,
          encoder.encode(`/* css */\nbody { background: ${cssUrl(path, cssRefs[i]!)} }`),
        );
      } else {
        folder.set(path, contentOf[ext] ?? encoder.encode('x'));
      }
    });
    return folder;
  });

/** Markup that parsers disagree on when they are careless: each fragment refers to `u`. */
const trickyMarkup: readonly ((u: string) => string)[] = [
  (u) => `<A HREF=${u.replace(/[\s>"'=<`]/g, encodeURIComponent)}>unquoted</A>`,
  (u) => `<a href='${u}'>outer <a href="${u}">nested</a> tail</a>`,
  (u) => `<img src = "${u}" src="gone.png" alt>`, // the first one counts
  (u) => `<svg><a href="${u}"><text>t</text></a><image href="${u}"/><title>icon</title></svg>`,
  (u) => `<noscript><img src="${u}"></noscript><template><img src="${u}"></template>`,
  (u) => `<style>/* url(gone.png) */ .a { background: url(${JSON.stringify(u)}) }</style>`,
  (u) => `<div style="background:url('${u}') , url(&quot;${u}&quot;)">x</div>`,
  (u) => `<a href="bad%zz.html">malformed</a><a href="  ${u}  ">spaced</a>`,
  (u) => `<link rel="ICON stylesheet" href="${u}"><object data="${u}"></object>`,
  (u) => `<video poster="${u}"><source src="${u}"><track src="${u}"></video>`,
  (u) => `<area href="${u}" alt=""><p id=x>1<p id=x>2<p id="X">3`,
  (u) => `<table><tr><td><a href="${u}">cell</td></tr></table><p>after`,
  (u) => `<title>second title</title><h1></h1><a href="${u}#a?b">frag</a>`,
];

const trickySite = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.nat(trickyMarkup.length - 1),
        fc.constantFrom(
          'Logo Big.PNG',
          'gone.png',
          'Sub Dir/Page.HTM',
          'sub dir/',
          '#top',
          'https://example.org/a',
        ),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    fc.boolean(),
  )
  .map(([fragments, titled]) => {
    const body = fragments
      .map(([i, target]) =>
        trickyMarkup[i]!(
          target.startsWith('#') || target.startsWith('http')
            ? target
            : target.split('/').map(encodeURIComponent).join('/'),
        ),
      )
      .join('\n');
    return new Map<string, Uint8Array>([
      ['index.html', encoder.encode(`${titled ? '<title>Home</title>' : ''}<body>${body}`)],
      ['Logo Big.PNG', png],
      ['Sub Dir/Page.HTM', encoder.encode('<title>Page</title><a href="../index.html">home</a>')],
    ]);
  });

describe('a converted random site always passes the folder checks', () => {
  it('holds for markup parsers may read differently', () => {
    fc.assert(
      fc.property(trickySite, (folder) => {
        const result = convertSite(folder);
        if (result.ok) expect(checkFolder(result.folder).violations).toEqual([]);
        else
          for (const v of result.report.violations)
            expect(Object.keys(siteCodes)).toContain(v.code);
      }),
      { numRuns: 300 },
    );
  });

  it('holds for hostile names, every reference form, missing titles and repeated ids', () => {
    let converted = 0;
    fc.assert(
      fc.property(site, (folder) => {
        const result = convertSite(folder);
        if (!result.ok) {
          for (const v of result.report.violations)
            expect(Object.keys(siteCodes)).toContain(v.code);
          return;
        }
        converted++;
        expect(checkFolder(result.folder).violations).toEqual([]);
        expect(JSON.stringify(convertSite(folder))).toBe(JSON.stringify(result));
      }),
      { numRuns: 300 },
    );
    // The property says nothing if nearly every site is refused.
    expect(converted).toBeGreaterThan(60);
  });
});
