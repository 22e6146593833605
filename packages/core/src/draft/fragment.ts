import type { ChildNode } from 'domhandler';
import { Element, Text } from 'domhandler';
import { Parser } from 'htmlparser2';
import { maxNesting } from '../html/page.js';
import { DraftHandler } from './element.js';
import type { ContentModel } from './html.js';
import { rawMode, voidElements } from './html.js';

/**
 * A fragment (the `html` of insert, replace and swap) is malformed when it:
 * - is empty: nothing but white space (swap alone accepts that, to empty an element);
 * - carries document markup: a doctype, or an `html`, `head`, `body` or `frameset` element;
 * - leaves an element open: every element needs its end tag, in order, except void elements
 *   (`<br>`) and self-closed SVG/MathML elements (`<path/>`). So `<p>a<p>b`, `<b><i>x</b>` and
 *   `<div>` are refused, as HTML's implied end tags would make the tree depend on the context;
 * - has a stray end tag, one that closes no open element (`</div>` alone, `</br>`, `</p>`);
 * - is text for a raw-text parent (`<script>`, `<style>`, `<textarea>`, `<title>`, …) that holds
 *   that parent's end tag (`</script`), which would end the element early.
 * - nests deeper than `maxDepth` elements (what is left of `maxNesting` below its parent), as
 *   a page deeper than a browser's parser allows fails the `pages` check and costs deep recursion.
 *   Reading stops at the first element too deep (see DraftHandler), so this refusal costs no
 *   more than reading the fragment up to there, however long the rest.
 * Inside <svg> or <math> the fragment is read as SVG or MathML, as a browser would.
 */
export type FragmentResult =
  | { readonly ok: true; readonly nodes: ChildNode[] }
  | { readonly ok: false; readonly problem: string };

const documentMarkup: ReadonlySet<string> = new Set(['html', 'head', 'body', 'frameset']);

export function parseFragment(
  html: string,
  model: Exclude<ContentModel, { kind: 'none' }>,
  options: { allowEmpty: boolean; maxDepth: number },
): FragmentResult {
  if (!options.allowEmpty && isBlank(html)) {
    return { ok: false, problem: 'The fragment is empty (nothing but white space).' };
  }
  if (model.kind === 'text') {
    if (html.toLowerCase().includes(`</${model.element}`)) {
      return {
        ok: false,
        problem: `Text inside <${model.element}> cannot contain </${model.element}.`,
      };
    }
    return { ok: true, nodes: html === '' ? [] : [new Text(html)] };
  }
  const wrapper = model.kind === 'html' ? null : model.kind;
  const handler = new BalanceHandler(options.maxDepth + (wrapper ? 1 : 0));
  const parser = new BalanceParser(handler);
  parser.end(wrapper ? `<${wrapper}>${html}</${wrapper}>` : html);
  const problem =
    handler.problem ??
    (parser.endTags !== handler.explicitCloses ? 'An end tag closes no open element.' : undefined);
  if (problem !== undefined) return { ok: false, problem };

  let nodes = handler.root.children;
  if (wrapper) {
    const only = nodes[0];
    if (nodes.length !== 1 || !(only instanceof Element)) {
      return { ok: false, problem: `The fragment closes the enclosing <${wrapper}>.` };
    }
    nodes = only.children;
  }
  const detached = nodes.slice();
  for (const node of detached) node.parent = null;
  if (detached[0]) detached[0].prev = null;
  const last = detached[detached.length - 1];
  if (last) last.next = null;
  return { ok: true, nodes: detached };
}

function isBlank(html: string): boolean {
  return /^[\t\n\f\r ]*$/.test(html);
}

/** Counts end tags as the tokenizer sees them, and marks self-closing ones. */
class BalanceParser extends Parser {
  endTags = 0;
  private readonly balance: BalanceHandler;

  constructor(handler: BalanceHandler) {
    super(handler, rawMode);
    this.balance = handler;
  }

  override onclosetag(start: number, endIndex: number): void {
    this.endTags += 1;
    super.onclosetag(start, endIndex);
  }

  override onselfclosingtag(endIndex: number): void {
    this.balance.selfClosing = true;
    super.onselfclosingtag(endIndex);
    this.balance.selfClosing = false;
  }
}

/** Builds the DOM like htmlparser2's own handler and notes the first sign of imbalance. */
class BalanceHandler extends DraftHandler {
  problem: string | undefined;
  explicitCloses = 0;
  selfClosing = false;

  override onopentag(name: string, attribs: Record<string, string>, isImplied?: boolean): void {
    super.onopentag(name, attribs);
    if (this.tooDeep) {
      this.fail(`The fragment nests elements deeper than the page allows (${maxNesting} levels).`);
      return;
    }
    if (isImplied) this.fail(`</${name}> has no start tag.`);
    if (documentMarkup.has(name)) this.fail(`<${name}> is document markup.`);
  }

  override onclosetag(name?: string, isImplied?: boolean): void {
    if (this.tooDeep) return;
    if (!isImplied) this.explicitCloses += 1;
    else if (!this.selfClosing && !voidElements.has(name ?? '')) {
      this.fail(`<${name ?? ''}> is not closed by its own end tag.`);
    }
    super.onclosetag();
  }

  override onprocessinginstruction(name: string, data: string): void {
    if (name.toLowerCase() === '!doctype') this.fail('A doctype is document markup.');
    super.onprocessinginstruction(name, data);
  }

  private fail(problem: string): void {
    this.problem ??= problem;
  }
}
