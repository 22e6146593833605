import { attributeReferences, styleSheetReferences, type PageReference } from './references.js';

/**
 * Deepest element nesting read. htmlparser2 keeps its open elements with `Array.unshift`, so a
 * page nested n deep costs n² (100,000 nested `<div>`s: 11 s). Blink's parser stops nesting at
 * 512 too; past it, the page is not read further and the pages check says so.
 */
export const maxNesting = 512;

export interface Position {
  readonly line: number;
  readonly column: number;
}
/** Where a finding sits in a page: `#id` or `@n` (decisions §3 outline numbering), line, column. */
export interface Place extends Position {
  readonly element?: string;
}

/** What the checks need from a page. Elements are named by their index in document order. */
export interface PageFacts {
  /** Nesting passed `maxNesting`: what follows was not read. */
  readonly tooDeep: boolean;
  /** The page's `<title>` (not an inline SVG's); undefined when there is none. */
  readonly title: { readonly node: number; readonly empty: boolean } | undefined;
  /** Elements whose id an earlier element already has. */
  readonly duplicateIds: readonly { readonly node: number; readonly id: string }[];
  readonly references: readonly PageReference[];
  readonly viewport: { readonly node: number; readonly content: string } | undefined;
  /**
   * The first `<base>` with an `href`, which browsers resolve the page's relative URLs against
   * (anywhere in the page, as the HTML standard has it; an SVG's `<base>` too, to be safe).
   */
  readonly base: { readonly node: number; readonly href: string } | undefined;
  /** The place of an element, or of a spot inside it (`offset` into the page's text). */
  placeOf(node: number, offset?: number): Place;
}

/**
 * What one read of a page learns, as plain data. `pageFacts` makes the checks' PageFacts of it.
 */
export interface PageData extends Omit<PageFacts, 'placeOf'> {
  /** Where each element starts in the page's text, by element number. */
  readonly starts: readonly number[];
  /** The elements named by their id (`#id`): the first element with each id. */
  readonly named: ReadonlyMap<number, string>;
  /** `<body>`'s element and its last descendant (Infinity while it was never closed). */
  readonly body: { readonly node: number; readonly last: number } | undefined;
}

/** Text gathered inside an element whose content matters (`<title>`, `<style>`). */
interface Capture {
  readonly node: number;
  readonly depth: number;
  readonly parts: string[];
  textStart: number;
}

/**
 * A page's data (PageData) built from the events of one streaming read, in document order: each
 * element opened (implied ones too, where the reader starts it and at what offset), text, and
 * each element closed. Both readers of a page (htmlparser2's Parser, and the scanner of
 * page-scan.ts, which reports the very same events) feed one of these, so what is learned from
 * an event is written once.
 */
export class PageDataBuilder {
  private readonly starts: number[] = [];
  private readonly firstWithId = new Map<string, number>();
  private readonly duplicateIds: { node: number; id: string }[] = [];
  private readonly references: PageReference[] = [];
  private readonly open: string[] = [];
  private svgDepth = 0;
  private body: { node: number; last: number } | undefined;
  private title: PageFacts['title'];
  private viewport: PageFacts['viewport'];
  private base: PageFacts['base'];
  private capture: Capture | undefined;
  private tooDeep = false;

  /**
   * An element opened at offset `start`. False when it would nest deeper than `maxNesting`: the
   * element is not counted and the reader reads no further.
   */
  openElement(name: string, attribs: Record<string, string>, start: number): boolean {
    if (this.open.length >= maxNesting) {
      this.tooDeep = true;
      return false;
    }
    const node = this.starts.length;
    this.starts.push(start);
    this.open.push(name);
    if (name === 'svg') this.svgDepth++;
    if (name === 'body' && this.body === undefined) this.body = { node, last: Infinity };
    const id = attribs.id;
    if (id !== undefined && id !== '') {
      if (this.firstWithId.has(id)) this.duplicateIds.push({ node, id });
      else this.firstWithId.set(id, node);
    }
    // The last viewport declaration is the one a browser applies.
    if (name === 'meta' && attribs.name?.toLowerCase() === 'viewport')
      this.viewport = { node, content: attribs.content ?? '' };
    if (name === 'base' && this.base === undefined && attribs.href !== undefined)
      this.base = { node, href: attribs.href };
    const captures =
      (name === 'title' && this.title === undefined && this.svgDepth === 0) || name === 'style';
    if (captures && this.capture === undefined)
      this.capture = { node, depth: this.open.length, parts: [], textStart: -1 };
    attributeReferences(name, attribs, node, this.references, this.svgDepth > 0);
    return true;
  }

  /** Text (entities decoded where the page's reader decodes them) starting at offset `start`. */
  text(data: string, start: number): void {
    const capture = this.capture;
    if (capture === undefined) return;
    if (capture.textStart < 0) capture.textStart = start;
    capture.parts.push(data);
  }

  closeElement(name: string): void {
    const capture = this.capture;
    if (capture !== undefined && this.open.length === capture.depth) {
      const content = capture.parts.join('');
      if (name === 'style')
        styleSheetReferences(content, capture.node, capture.textStart, this.references);
      else this.title = { node: capture.node, empty: content.trim() === '' };
      this.capture = undefined;
    }
    this.open.pop();
    if (name === 'svg') this.svgDepth--;
    if (name === 'body' && this.body !== undefined && this.body.last === Infinity)
      this.body.last = this.starts.length - 1;
  }

  data(): PageData {
    const named = new Map<number, string>();
    for (const [id, node] of this.firstWithId) named.set(node, id);
    const { tooDeep, title, duplicateIds, references, viewport, base, starts, body } = this;
    return { tooDeep, title, duplicateIds, references, viewport, base, starts, named, body };
  }
}
