import { Parser } from 'htmlparser2';
import { PageDataBuilder } from './page-data.js';
import type { PageData, PageFacts, Position } from './page-data.js';
import { scanPageData } from './page-scan.js';

export { maxNesting } from './page-data.js';
export type { PageData, PageFacts, Place, Position } from './page-data.js';

/** Offset → 1-based line and column; the line table is built on first use. */
export function positionFinder(text: string): (offset: number) => Position {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1))
        starts.push(at + 1);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/**
 * Reads a page in one streaming pass, building no DOM: a folder has many pages, and the DOMs
 * would cost more to build and collect than the checks need. Each element opened is one element
 * of the DOM htmlparser2 would build, in document order, so element `n` here is element `n` of
 * the editing outline (decisions §3: `@n` counts from `<body>`, `#id` is the first element with
 * that id). Most pages are read by the scanner of page-scan.ts, several times faster than
 * htmlparser2's Parser on a cold start and reporting exactly its events; a page using markup the
 * scanner leaves alone (inline SVG or MathML, CDATA, `<plaintext>`, an unfinished tag at its
 * end) is read by the Parser itself.
 */
export function readPageData(text: string): PageData {
  return scanPageData(text) ?? parsePageData(text);
}

/** `readPageData` by htmlparser2's Parser. */
export function parsePageData(text: string): PageData {
  const page = new PageDataBuilder();
  const parser: Parser = new Parser({
    onopentag(name, attribs) {
      // Past the deepest nesting, no further events: the rest of the page is not read.
      if (!page.openElement(name, attribs, parser.startIndex)) parser.pause();
    },
    ontext(data) {
      page.text(data, parser.startIndex);
    },
    onclosetag(name) {
      page.closeElement(name);
    },
  });
  parser.end(text);
  return page.data();
}

/**
 * The checks' facts of a page read by `readPageData`. Its text is asked for only to place a
 * finding (line and column), which few pages need: read elsewhere, a page need not be decoded.
 */
export function pageFacts(data: PageData, text: () => string): PageFacts {
  const { starts, named, body } = data;
  let positionAt: ((offset: number) => Position) | undefined;
  return {
    tooDeep: data.tooDeep,
    title: data.title,
    duplicateIds: data.duplicateIds,
    references: data.references,
    viewport: data.viewport,
    base: data.base,
    placeOf(node, offset) {
      const id = named.get(node);
      let name: string | undefined;
      if (id !== undefined) name = `#${id}`;
      else if (body !== undefined && node >= body.node && node <= body.last)
        name = `@${node - body.node}`;
      positionAt ??= positionFinder(text());
      const position = positionAt(offset ?? starts[node] ?? 0);
      return { ...(name === undefined ? {} : { element: name }), ...position };
    },
  };
}

/** Reads a page for the checks (see `readPageData`). */
export function readPage(text: string): PageFacts {
  return pageFacts(readPageData(text), () => text);
}
