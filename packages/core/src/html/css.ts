/** A span of the style sheet text, end exclusive. */
export interface CssSpan {
  readonly start: number;
  readonly end: number;
}

/** A URL as written in a style sheet: the span of its source text (quotes and spaces left out). */
interface CssValue extends CssSpan {
  /** The text with CSS escapes decoded. */
  readonly value: string;
}

export interface CssReference {
  /** The URL with CSS escapes decoded. */
  readonly url: string;
  /** Offset of the reference (its `url(`, `@import` or string) in the style sheet text. */
  readonly offset: number;
  /** The URL's own text (what a rewrite replaces), without quotes or surrounding spaces. */
  readonly span: CssSpan;
  /** `url`: a `url()`, or a string argument of `image-set()`; `import`: what `@import` names. */
  readonly kind: 'import' | 'url';
}

// Code points, named as CSS Syntax names them.
const LF = 10;
const CR = 13;
const FF = 12;
const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const APOSTROPHE = 39;
const NUMBER_SIGN = 35;
const OPEN = 40;
const CLOSE = 41;
const ASTERISK = 42;
const PLUS = 43;
const HYPHEN = 45;
const DOT = 46;
const SLASH = 47;
const PERCENT = 37;
const GREATER = 62;
const E_UPPER = 69;
const E_LOWER = 101;
const LESS = 60;
const AT = 64;
const BACKSLASH = 92;
const UNDERSCORE = 95;
const EOF = -1;

const isNewline = (c: number) => c === LF || c === CR || c === FF;
const isSpace = (c: number) => isNewline(c) || c === TAB || c === SPACE;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isIdentStart = (c: number) => isLetter(c) || c === UNDERSCORE || c >= 0x80;
const isIdent = (c: number) => isIdentStart(c) || isDigit(c) || c === HYPHEN;
/** U+0000 is not here: preprocessing makes it U+FFFD, which a URL may hold. */
const isNonPrintable = (c: number) =>
  (c >= 1 && c <= 8) || c === 11 || (c >= 14 && c <= 31) || c === 127;

/**
 * Runs of code points the scanner passes over one at a time otherwise: ident code points, and
 * those a URL token may hold as they are. Single character classes, sticky: linear, no
 * backtracking, and fast before the scanner's own code is compiled (a CLI run is that short).
 */
const identRun = /[-\w\u0080-\uffff]*/y;
// eslint-disable-next-line no-control-regex -- non-printable code points end a URL token
const plainUrlRun = /[^\s"'()\\\0-\x08\x0b\x0e-\x1f\x7f]*/y;
/** CSS compares names with their ASCII letters lowercased, and only those. */
const asciiLower = (name: string) =>
  /[A-Z]/.test(name)
    ? name.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32))
    : name;

/** The longest function or at-rule name the scanner asks about (`-webkit-image-set`). */
const longestName = 17;
const imageSetNames = new Set(['image-set', '-webkit-image-set']);

/**
 * Every `url()`, `@import` and `image-set()` string of a style sheet (a `<style>` element or
 * `style` attribute too), as a browser reads them. A tokenizer after CSS Syntax Level 3 §4, in
 * one linear pass with constant lookahead: a browser reads `u\72l(x)` as `url(x)`, `@\69mport`
 * as `@import`, skips comments but not `/*` inside strings, and ends a string only where the
 * tokenizer does; a scanner that disagrees on any of those can be walked past. Regular
 * expressions are avoided too: they backtrack quadratically on hostile input (`url(` and a
 * megabyte of spaces).
 */
export function cssReferences(css: string): CssReference[] {
  return new CssScanner(css).scan();
}

class CssScanner {
  private at = 0;
  private readonly found: CssReference[] = [];
  /** Open parentheses and functions. */
  private depth = 0;
  /** Depths of the open `image-set(` functions, innermost last. */
  private readonly imageSets: number[] = [];
  /** Offset of an `@import` whose URL comes next (only white space and comments between). */
  private pendingImport: number | undefined;

  constructor(private readonly css: string) {}

  private code(at: number): number {
    return at < this.css.length ? this.css.charCodeAt(at) : EOF;
  }

  /** Whether `\` at `at` starts an escape (a backslash not followed by a newline). */
  private isEscape(at: number): boolean {
    return this.code(at) === BACKSLASH && !isNewline(this.code(at + 1));
  }

  /** CSS Syntax "would start an ident sequence", at `at`. */
  private startsIdent(at: number): boolean {
    const c = this.code(at);
    if (c === HYPHEN) {
      const next = this.code(at + 1);
      return isIdentStart(next) || next === HYPHEN || this.isEscape(at + 1);
    }
    return isIdentStart(c) || this.isEscape(at);
  }

  /** CSS Syntax "starts with a number", at `at`. */
  private startsNumber(at: number): boolean {
    const c = this.code(at);
    if (c === PLUS || c === HYPHEN) {
      const next = this.code(at + 1);
      return isDigit(next) || (next === DOT && isDigit(this.code(at + 2)));
    }
    return isDigit(c) || (c === DOT && isDigit(this.code(at + 1)));
  }

  /** Consumes the escape whose backslash is at `this.at`; returns the code point it stands for. */
  private escape(): number {
    this.at++; // the backslash
    const c = this.code(this.at);
    if (c === EOF) return 0xfffd;
    if (!isHex(c)) {
      const point = this.css.codePointAt(this.at)!;
      this.at += point > 0xffff ? 2 : 1;
      return point === 0 ? 0xfffd : point;
    }
    const start = this.at;
    while (this.at - start < 6 && isHex(this.code(this.at))) this.at++;
    const value = parseInt(this.css.slice(start, this.at), 16);
    this.skipOneSpace();
    const surrogate = value >= 0xd800 && value <= 0xdfff;
    return value === 0 || surrogate || value > 0x10ffff ? 0xfffd : value;
  }

  /** One white space, a CR LF pair counting as one (the preprocessing makes it one LF). */
  private skipOneSpace(): void {
    const c = this.code(this.at);
    if (c === CR && this.code(this.at + 1) === LF) this.at += 2;
    else if (isSpace(c)) this.at++;
  }

  /** Where the run `pattern` matches from `this.at` ends. */
  private runOf(pattern: RegExp): number {
    pattern.lastIndex = this.at;
    pattern.test(this.css);
    return pattern.lastIndex;
  }

  private skipSpaces(): void {
    while (isSpace(this.code(this.at))) this.at++;
  }

  /**
   * Consumes an ident sequence; returns its name with escapes decoded and ASCII letters
   * lowercased (CSS compares names so), or undefined when longer than any name asked about.
   */
  private identSequence(): string | undefined {
    // Most names hold no escape: one run, one slice.
    const start = this.at;
    this.at = this.runOf(identRun);
    let name: string | undefined =
      this.at - start > longestName ? undefined : asciiLower(this.css.slice(start, this.at));
    for (;;) {
      const c = this.code(this.at);
      let point: number;
      if (isIdent(c)) {
        point = c;
        this.at++;
      } else if (this.isEscape(this.at)) point = this.escape();
      else return name;
      if (name === undefined || name.length >= longestName) name = undefined;
      else name += String.fromCodePoint(point >= 65 && point <= 90 ? point + 32 : point);
    }
  }

  /**
   * Consumes an ident sequence whose name no one asks about (a hash's, a unit, an ident that is
   * not a function's name): no slice, no lowercasing, most of a style sheet's idents being such.
   */
  private skipIdentSequence(): void {
    for (;;) {
      this.at = this.runOf(identRun);
      if (!this.isEscape(this.at)) return;
      this.escape();
    }
  }

  /** Consumes a string token at its opening quote; its value, or undefined for a bad string. */
  private string(): CssValue | undefined {
    const quote = this.code(this.at);
    const value = new Decoded(this.css, ++this.at);
    for (;;) {
      const c = this.code(this.at);
      if (c === quote || c === EOF) {
        const text = value.end(this.at);
        if (c === quote) this.at++;
        return text;
      }
      if (isNewline(c)) return undefined; // a bad string: the newline is left to the next token
      if (c !== BACKSLASH) {
        this.at++;
        continue;
      }
      const from = this.at;
      const next = this.code(from + 1);
      if (next !== EOF && !isNewline(next)) {
        value.replace(from, this.escape(), this.at);
        continue;
      }
      // A backslash at the end stands for nothing, and so does one before a newline (a line
      // continuation; a CR LF pair is one newline).
      this.at += next === EOF ? 1 : next === CR && this.code(from + 2) === LF ? 3 : 2;
      value.replace(from, undefined, this.at);
    }
  }

  /**
   * Consumes a URL token after `url(` and its white space; the URL, or undefined for a bad URL
   * (whose remnants are consumed to the `)`, as the tokenizer does).
   */
  private urlToken(): CssValue | undefined {
    const value = new Decoded(this.css, this.at);
    for (;;) {
      this.at = this.runOf(plainUrlRun);
      const c = this.code(this.at);
      if (c === CLOSE || c === EOF) {
        const text = value.end(this.at);
        if (c === CLOSE) this.at++;
        return text;
      }
      if (isSpace(c)) {
        const end = this.at;
        this.skipSpaces();
        const after = this.code(this.at);
        if (after === CLOSE || after === EOF) {
          if (after === CLOSE) this.at++;
          return value.end(end);
        }
        break;
      }
      if (c === QUOTE || c === APOSTROPHE || c === OPEN || isNonPrintable(c)) break;
      if (c !== BACKSLASH) this.at++;
      else if (this.isEscape(this.at)) {
        const from = this.at;
        value.replace(from, this.escape(), this.at);
      } else break;
    }
    this.badUrlRemnants();
    return undefined;
  }

  private badUrlRemnants(): void {
    for (;;) {
      const c = this.code(this.at);
      if (c === CLOSE || c === EOF) {
        if (c === CLOSE) this.at++;
        return;
      }
      if (this.isEscape(this.at)) this.escape();
      else this.at++;
    }
  }

  private add(value: CssValue | undefined, offset: number): void {
    if (value === undefined) return;
    const kind = this.pendingImport === undefined ? 'url' : 'import';
    const span = { start: value.start, end: value.end };
    this.found.push({ url: value.value, offset, span, kind });
  }

  /** An ident, a function, or `url(` with its URL, starting at `this.at`. */
  private identLike(): void {
    const start = this.at;
    const end = this.runOf(identRun);
    const after = this.code(end);
    if (after !== OPEN && after !== BACKSLASH) {
      this.at = end; // not a function: its name is not needed
      return;
    }
    const name = this.identSequence();
    if (this.code(this.at) !== OPEN) return;
    this.at++;
    if (name === 'url') {
      this.skipSpaces();
      const c = this.code(this.at);
      if (c !== QUOTE && c !== APOSTROPHE) return this.add(this.urlToken(), start);
      this.depth++; // `url("…")` is a function; its `)` comes as a token of its own
      return this.add(this.string(), start);
    }
    this.depth++;
    if (name !== undefined && imageSetNames.has(name)) this.imageSets.push(this.depth);
  }

  /** Consumes a number and the unit or `%` after it. */
  private numeric(): void {
    const c = this.code(this.at);
    if (c === PLUS || c === HYPHEN) this.at++;
    while (isDigit(this.code(this.at))) this.at++;
    if (this.code(this.at) === DOT && isDigit(this.code(this.at + 1))) {
      this.at++;
      while (isDigit(this.code(this.at))) this.at++;
    }
    const e = this.code(this.at);
    if (e === E_UPPER || e === E_LOWER) {
      const sign = this.code(this.at + 1);
      const skip = sign === PLUS || sign === HYPHEN ? 2 : 1;
      if (isDigit(this.code(this.at + skip))) {
        this.at += skip;
        while (isDigit(this.code(this.at))) this.at++;
      }
    }
    if (this.startsIdent(this.at)) this.skipIdentSequence();
    else if (this.code(this.at) === PERCENT) this.at++;
  }

  scan(): CssReference[] {
    const css = this.css;
    while (this.at < css.length) {
      const start = this.at;
      const c = css.charCodeAt(start);
      if (c === SLASH && this.code(start + 1) === ASTERISK) {
        const close = css.indexOf('*/', start + 2);
        this.at = close < 0 ? css.length : close + 2;
        continue; // comments and white space keep an @import waiting for its URL
      }
      if (isSpace(c)) {
        this.skipSpaces();
        continue;
      }
      const pendingImport = this.pendingImport;
      if (c === QUOTE || c === APOSTROPHE) {
        const value = this.string();
        const inImageSet = this.imageSets[this.imageSets.length - 1] === this.depth;
        // `@import "…"` is placed at the `@import`.
        if (pendingImport !== undefined) this.add(value, pendingImport);
        else if (inImageSet) this.add(value, start);
      } else if (c === AT && this.startsIdent(start + 1)) {
        this.at++;
        const name = this.identSequence();
        this.pendingImport = name === 'import' ? start : undefined;
        continue;
      } else if (c === NUMBER_SIGN && (isIdent(this.code(start + 1)) || this.isEscape(start + 1))) {
        this.at++;
        this.skipIdentSequence();
      } else if (this.startsNumber(start)) {
        this.numeric();
      } else if (
        c === HYPHEN &&
        this.code(start + 1) === HYPHEN &&
        this.code(start + 2) === GREATER
      ) {
        this.at += 3; // -->
      } else if (this.startsIdent(start)) {
        this.identLike();
      } else if (c === LESS && css.startsWith('!--', start + 1)) {
        this.at += 4; // <!--
      } else {
        this.at++;
        if (c === OPEN) this.depth++;
        else if (c === CLOSE && this.depth > 0) {
          if (this.imageSets[this.imageSets.length - 1] === this.depth) this.imageSets.pop();
          this.depth--;
        }
      }
      if (pendingImport === this.pendingImport) this.pendingImport = undefined;
    }
    return this.found;
  }
}

/**
 * A token's value: the source text from `start`, with escapes replaced by what they stand for.
 * Built from slices, so a long value without escapes costs one slice.
 */
class Decoded {
  private readonly parts: string[] = [];
  private from: number;

  constructor(
    private readonly css: string,
    private readonly start: number,
  ) {
    this.from = start;
  }

  /** The text from `start` to `end` stands for `point` (nothing when undefined). */
  replace(start: number, point: number | undefined, end: number): void {
    this.parts.push(this.css.slice(this.from, start));
    if (point !== undefined) this.parts.push(String.fromCodePoint(point));
    this.from = end;
  }

  /** The value, its text ending at `end`; U+0000 reads as U+FFFD (CSS preprocessing). */
  end(end: number): CssValue {
    this.parts.push(this.css.slice(this.from, end));
    const value = this.parts.join('').replaceAll('\0', '\ufffd');
    return { value, start: this.start, end };
  }
}
