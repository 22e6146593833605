import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { PageDataBuilder, type PageData } from './page-data.js';
import { openImpliesClose, rawTextElements, voidElements } from './parser-rules.js';

const TAB = 9;
const LF = 10;
const FF = 12;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const SQUOTE = 39;
const DASH = 45;
const SLASH = 47;
const EQUALS = 61;
const GT = 62;
const QUESTION = 63;
const LBRACKET = 91;

/** Markup left to htmlparser2 (see `scanPageData`): the scan gives up. */
const unscanned = -1;

const isSpace = (c: number) => c === SPACE || c === LF || c === TAB || c === FF || c === CR;
/** What ends a tag's or an attribute's name: white space, `/` or `>` (htmlparser2's Tokenizer). */
const endsName = (c: number) => c === SLASH || c === GT || isSpace(c);
const isAsciiAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/**
 * Control characters htmlparser2 takes for `<` and `/` when it looks for the end of raw text (it
 * compares `c | 0x20`): a page holding one is left to it.
 */
const lookalikes = /[\x0f\x1c]/; // eslint-disable-line no-control-regex

/**
 * A page's data (see `readPageData`) by a scanner that jumps from one `<` to the next instead of
 * stepping through every character as htmlparser2's Tokenizer does. It reports to the builder
 * exactly the events htmlparser2's Parser would, at the same offsets: its tokenizer's rules for
 * tags, attributes, comments and raw text, and its tree rules (parser-rules.ts: implied ends,
 * void elements, a nested `<form>` ignored, `</p>` and `</br>` opening elements). Undefined for a
 * page with markup it leaves to the Parser, whose rules there are many: inline SVG or MathML
 * (foreign content), CDATA sections, `<plaintext>`, and markup left unfinished at its end.
 */
export function scanPageData(text: string): PageData | undefined {
  if (lookalikes.test(text)) return undefined;
  return new PageScanner(text).scan();
}

class PageScanner {
  private readonly page = new PageDataBuilder();
  /** The open elements, innermost last. */
  private readonly stack: string[] = [];
  /** Where the Parser would say the next element starts (its `startIndex`). */
  private startIndex = 0;
  /** Where text not yet reported starts (the Tokenizer's `sectionStart`). */
  private sectionStart = 0;
  /** The page nests too deep: nothing more is read. */
  private stopped = false;

  constructor(private readonly text: string) {}

  scan(): PageData | undefined {
    const { text } = this;
    for (let at = 0; !this.stopped;) {
      const lt = text.indexOf('<', at);
      if (lt < 0) break;
      if (lt > this.sectionStart) this.startIndex = lt; // the text before it was reported
      this.sectionStart = lt;
      const c = text.charCodeAt(lt + 1);
      let next: number;
      if (isAsciiAlpha(c)) next = this.startTag(lt);
      else if (c === SLASH) next = this.endTag(lt);
      else if (c === BANG) next = this.declaration(lt);
      else if (c === QUESTION) next = this.bogusComment(lt + 2);
      else next = lt + 1; // a `<` of the text
      if (next === unscanned) return undefined;
      at = next;
    }
    if (!this.stopped) while (this.stack.length > 0) this.pop();
    return this.page.data();
  }

  private pop(): void {
    this.page.closeElement(this.stack.pop()!);
  }

  /** Everything up to the next `>` at or after `from`, a comment; after it, where to go on. */
  private bogusComment(from: number): number {
    const gt = this.text.indexOf('>', from);
    if (gt < 0) return unscanned;
    this.startIndex = this.sectionStart = gt + 1;
    return gt + 1;
  }

  /** `<!`: a comment, a DOCTYPE or anything else up to `>`; CDATA is left to the Parser. */
  private declaration(lt: number): number {
    const { text } = this;
    if (text.startsWith('--', lt + 2)) {
      const body = lt + 4;
      let gt: number;
      // `<!-->` and `<!--->` end where they start.
      if (text.charCodeAt(body) === GT) gt = body;
      else if (text.charCodeAt(body) === DASH && text.charCodeAt(body + 1) === GT) gt = body + 1;
      else {
        gt = this.commentEnd(body);
        if (gt === unscanned) return unscanned;
      }
      this.startIndex = this.sectionStart = gt + 1;
      return gt + 1;
    }
    if (text.charCodeAt(lt + 2) === LBRACKET) return unscanned;
    return this.bogusComment(lt + 2);
  }

  /**
   * The `>` of the first `-->` or `--!>` from `from`. Each `--` is looked at once: searching for
   * either ending from every comment would read a page of many comments over and over.
   */
  private commentEnd(from: number): number {
    const { text } = this;
    for (
      let dashes = text.indexOf('--', from);
      dashes >= 0;
      dashes = text.indexOf('--', dashes + 1)
    ) {
      const after = text.charCodeAt(dashes + 2);
      if (after === GT) return dashes + 2;
      if (after === BANG && text.charCodeAt(dashes + 3) === GT) return dashes + 3;
    }
    return unscanned;
  }

  /** The end of the tag name starting at `from` (its first character is a letter). */
  private nameEnd(from: number): number {
    const { text } = this;
    let at = from + 1;
    while (at < text.length && !endsName(text.charCodeAt(at))) at++;
    return at < text.length ? at : unscanned;
  }

  private tagName(from: number, to: number): string {
    const name = this.text.slice(from, to).toLowerCase();
    return name === 'image' ? 'img' : name;
  }

  /** `</`: an end tag, `</>` (nothing), or a comment up to `>`. */
  private endTag(lt: number): number {
    const { text } = this;
    const c = text.charCodeAt(lt + 2);
    if (Number.isNaN(c)) return text.length;
    if (c === GT) {
      this.sectionStart = lt + 3;
      return lt + 3;
    }
    if (!isAsciiAlpha(c)) return this.bogusComment(lt + 3);
    const end = this.nameEnd(lt + 2);
    if (end === unscanned) return unscanned;
    this.closeTag(this.tagName(lt + 2, end));
    return this.afterEndTag(end);
  }

  /** Past an end tag whose name ended at `end`, up to its `>`. */
  private afterEndTag(end: number): number {
    const { text } = this;
    this.startIndex = end + 1;
    const gt = text.charCodeAt(end) === GT ? end : text.indexOf('>', end + 1);
    if (gt < 0) return unscanned;
    this.sectionStart = gt + 1;
    return gt + 1;
  }

  /** An end tag named `name`, as the Parser's `onclosetag` takes it. */
  private closeTag(name: string): void {
    if (!voidElements.has(name)) {
      const at = this.stack.lastIndexOf(name);
      if (at >= 0) while (this.stack.length > at) this.pop();
      else if (name === 'p') {
        // `</p>` with no `<p>` open is an empty `<p>`.
        this.openTag('p');
        this.openElement('p', {});
        this.pop();
      }
    } else if (name === 'br') {
      // `</br>` is a `<br>`.
      this.openElement('br', {});
      this.page.closeElement('br');
    }
  }

  /** The Parser's `emitOpenTag`: the elements it implies the end of, then its own. */
  private openTag(name: string): boolean {
    if (name === 'form' && this.stack.includes('form')) return false; // ignored, as browsers do
    const implied = openImpliesClose.get(name);
    if (implied !== undefined)
      while (this.stack.length > 0 && implied.has(this.stack[this.stack.length - 1]!)) this.pop();
    if (!voidElements.has(name)) this.stack.push(name);
    return true;
  }

  private openElement(name: string, attribs: Record<string, string>): void {
    if (!this.page.openElement(name, attribs, this.startIndex)) this.stopped = true;
  }

  private startTag(lt: number): number {
    const end = this.nameEnd(lt + 1);
    if (end === unscanned) return unscanned;
    const name = this.tagName(lt + 1, end);
    if (name === 'svg' || name === 'math' || name === 'plaintext') return unscanned;
    const counted = this.openTag(name);
    const attribs: Record<string, string> = {};
    const gt = this.attributes(end, attribs);
    if (gt === unscanned) return unscanned;
    if (counted) this.openElement(name, attribs);
    if (voidElements.has(name)) this.page.closeElement(name);
    this.startIndex = this.sectionStart = gt + 1;
    if (this.stopped || !rawTextElements.has(name)) return gt + 1;
    return this.rawText(name, gt + 1);
  }

  /** A start tag's attributes from `at` (after its name) into `attribs`; where its `>` is. */
  private attributes(from: number, attribs: Record<string, string>): number {
    const { text } = this;
    const length = text.length;
    let at = from;
    for (;;) {
      let c = text.charCodeAt(at);
      if (c === GT) return at;
      if (Number.isNaN(c)) return unscanned;
      if (c === SLASH || isSpace(c)) {
        at++; // `/` before `>` closes nothing in HTML
        continue;
      }
      const nameStart = at++; // any other character starts a name, `=` and quotes too
      while (at < length && !endsName((c = text.charCodeAt(at))) && c !== EQUALS) at++;
      const name = text.slice(nameStart, at).toLowerCase();
      while (isSpace(text.charCodeAt(at))) at++;
      let value = '';
      if (text.charCodeAt(at) === EQUALS) {
        at++;
        while (isSpace(text.charCodeAt(at))) at++;
        const quote = text.charCodeAt(at);
        if (Number.isNaN(quote)) return unscanned;
        if (quote === DQUOTE || quote === SQUOTE) {
          const close = text.indexOf(quote === DQUOTE ? '"' : "'", at + 1);
          if (close < 0) return unscanned;
          value = text.slice(at + 1, close);
          at = close + 1;
        } else {
          const valueStart = at;
          while (at < length && !isSpace((c = text.charCodeAt(at))) && c !== GT) at++;
          value = text.slice(valueStart, at);
        }
        if (value.includes('&')) value = decodeHTMLAttribute(value);
      }
      // The first of two attributes of one name is the one kept.
      if (!Object.prototype.hasOwnProperty.call(attribs, name)) attribs[name] = value;
    }
  }

  /**
   * The content of a raw text element (`<style>`, `<script>`, `<title>`…) that starts at `from`:
   * text up to the first `</name` followed by white space, `/` or `>`; then its end tag.
   */
  private rawText(name: string, from: number): number {
    const { text } = this;
    let end = text.indexOf('</', from);
    for (; end >= 0; end = text.indexOf('</', end + 1)) {
      const after = end + 2 + name.length;
      if (after < text.length && endsName(text.charCodeAt(after)) && this.names(end + 2, name))
        break;
    }
    if (end < 0) return unscanned;
    if (end > from) {
      const raw = text.slice(from, end);
      const decoded = name === 'title' || name === 'textarea'; // RCDATA: entities are decoded
      this.page.text(decoded && raw.includes('&') ? decodeHTML(raw) : raw, from);
      this.startIndex = end;
    }
    const nameEnd = end + 2 + name.length;
    this.closeTag(name);
    return this.afterEndTag(nameEnd);
  }

  /** Whether the text at `at` is `name` with ASCII letters in either case. */
  private names(at: number, name: string): boolean {
    for (let i = 0; i < name.length; i++)
      if ((this.text.charCodeAt(at + i) | 0x20) !== name.charCodeAt(i)) return false;
    return true;
  }
}
