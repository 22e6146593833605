// A deliberately naive draft, the reference for differential property tests: it walks the whole
// document for every reference, keeps a full copy of the document per undo step, and reads the
// outline with textContent. Its fragments come from a labelled pool, so it needs no fragment checker.
import render from 'dom-serializer';
import type { ChildNode, Document, Element } from 'domhandler';
import { cloneNode, isTag, isText, Text } from 'domhandler';
import { appendChild, prepend, removeElement } from 'domutils';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { parseDocument } from 'htmlparser2';
import type { Operation, OperationResult, OutlineEntry } from '@galley/core';

/** A fragment of the pool: `ok` parses anywhere, `blank` is only white space, `bad` is malformed. */
export interface PoolFragment {
  readonly html: string;
  readonly label: 'ok' | 'blank' | 'bad';
}

export const fragmentPool: readonly PoolFragment[] = [
  { html: '<p>new <b>bold</b></p>', label: 'ok' },
  { html: 'just text &amp; more', label: 'ok' },
  { html: '<li>item</li>', label: 'ok' },
  { html: '<img src="a.png" alt="">', label: 'ok' },
  { html: '<section><h2>T</h2><p>a</p>\n<p>b</p></section>', label: 'ok' },
  { html: '<!-- c --><span>s</span>', label: 'ok' },
  { html: '<b id="dup">dup</b>', label: 'ok' },
  { html: ' ', label: 'blank' },
  { html: '', label: 'blank' },
  { html: '<p>a<p>b', label: 'bad' },
  { html: '</div>', label: 'bad' },
  { html: '<div>', label: 'bad' },
  { html: '<body>x</body>', label: 'bad' },
  { html: '<b><i>x</b></i>', label: 'bad' },
];

const raw = { decodeEntities: false } as const;
const voids = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);
const rawText = new Set('script style xmp iframe noembed noframes'.split(' '));
const textOnly = new Set([...rawText, 'textarea', 'title']);
const integration = new Set('foreignObject desc title mi mo mn ms mtext annotation-xml'.split(' '));

export type ModelAnswer = { ok: true; result: OperationResult } | { ok: false; errors: string[] };

export class ReferenceDraft {
  private doc: Document;
  private readonly undos: Document[] = [];
  private redos: Document[] = [];

  constructor(html: string) {
    this.doc = parseDocument(html, raw);
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }
  get canRedo(): boolean {
    return this.redos.length > 0;
  }

  html(): string {
    return render(this.doc, raw);
  }

  body(): Element {
    const find = (nodes: ChildNode[]): Element | undefined => {
      for (const node of nodes) {
        if (!isTag(node)) continue;
        if (node.name === 'body') return node;
        const found = find(node.children);
        if (found) return found;
      }
      return undefined;
    };
    return find(this.doc.children)!;
  }

  /** Every element inside <body>, in pre-order, walked afresh. */
  elements(): Element[] {
    const out: Element[] = [];
    const walk = (element: Element): void => {
      for (const child of element.children) {
        if (isTag(child)) {
          out.push(child);
          walk(child);
        }
      }
    };
    walk(this.body());
    return out;
  }

  outline(): OutlineEntry[] {
    return this.elements().map((element, index) => ({
      node: index + 1,
      tag: element.name,
      id: idOf(element),
      classes: decodeHTMLAttribute(element.attribs['class'] ?? '')
        .split(/[\t\n\f\r ]+/)
        .filter(Boolean),
      // ASCII white space only, as HTML's "strip and collapse": a no-break space is text.
      text: Array.from(
        textOf(element)
          .replace(/[\t\n\f\r ]+/g, ' ')
          .replace(/^ | $/g, ''),
      )
        .slice(0, 80)
        .join(''),
    }));
  }

  undo(): ModelAnswer {
    const previous = this.undos.pop();
    if (!previous) return { ok: false, errors: ['nothing_to_undo'] };
    this.redos.push(this.doc);
    this.doc = previous;
    return { ok: true, result: { nodes: [], ids: [] } };
  }

  redo(): ModelAnswer {
    const next = this.redos.pop();
    if (!next) return { ok: false, errors: ['nothing_to_redo'] };
    this.undos.push(this.doc);
    this.doc = next;
    return { ok: true, result: { nodes: [], ids: [] } };
  }

  apply(operation: Operation, fragment: PoolFragment | undefined): ModelAnswer {
    const before = cloneNode(this.doc, true);
    const errors: string[] = [];
    const focus = this.change(operation, fragment, errors);
    if (errors.length > 0 || !focus) {
      this.doc = before;
      return { ok: false, errors: errors.sort() };
    }
    this.undos.push(before);
    this.redos = [];
    const list = this.elements();
    const ids: string[] = [];
    const collect = (element: Element): void => {
      const id = idOf(element);
      if (id !== null) ids.push(id);
      for (const child of element.children) if (isTag(child)) collect(child);
    };
    focus.forEach(collect);
    return { ok: true, result: { nodes: focus.map((e) => `@${list.indexOf(e) + 1}`), ids } };
  }

  private change(
    op: Operation,
    fragment: PoolFragment | undefined,
    errors: string[],
  ): Element[] | undefined {
    const body = this.body();
    const resolve = (ref: string, field: string): Element | undefined => {
      const list = this.elements();
      const found = ref.startsWith('@')
        ? Number(ref.slice(1)) === 0
          ? body
          : list[Number(ref.slice(1)) - 1]
        : list.find((element) => idOf(element) === ref.slice(1));
      if (!found) errors.push(`unresolved_reference@${field}`);
      return found;
    };
    const notBody = (element: Element | undefined, field: string): Element | undefined => {
      if (element === body) errors.push(`body_not_allowed@${field}`);
      return element === body ? undefined : element;
    };
    const beforeOf = (parent: Element | undefined): Element | null | undefined => {
      if (!('before' in op) || op.before === undefined) return null;
      const found = notBody(resolve(op.before, 'operation.before'), 'operation.before');
      if (found && parent && found.parent !== parent) {
        errors.push('not_a_child@operation.before');
        return undefined;
      }
      return found;
    };
    const nodesFor = (
      parent: Element | undefined,
      field: string,
      allowBlank: boolean,
    ): ChildNode[] | undefined => {
      const kind = parent ? contextOf(parent) : 'html';
      if (kind === 'void') {
        errors.push(`not_a_container@${field}`);
        return undefined;
      }
      if (!fragment) throw new Error('operation with html but no pool fragment');
      if (fragment.label === 'blank' && !allowBlank) errors.push('malformed_html@operation.html');
      else if (kind === 'text') {
        if (fragment.html.toLowerCase().includes(`</${parent!.name}`))
          errors.push('malformed_html@operation.html');
        else return fragment.html === '' ? [] : [new Text(fragment.html)];
      } else if (fragment.label === 'bad') errors.push('malformed_html@operation.html');
      else return [...parseDocument(fragment.html, raw).children];
      return undefined;
    };

    switch (op.kind) {
      case 'insert': {
        const parent = resolve(op.parent, 'operation.parent');
        const before = beforeOf(parent);
        const nodes = nodesFor(parent, 'operation.parent', false);
        if (!parent || before === undefined || !nodes || errors.length) return undefined;
        for (const node of nodes) place(parent, before, node);
        return nodes.filter(isTag);
      }
      case 'move': {
        const target = notBody(resolve(op.target, 'operation.target'), 'operation.target');
        const parent = resolve(op.parent, 'operation.parent');
        const before = beforeOf(parent);
        if (target && parent && contains(target, parent))
          errors.push('move_into_self@operation.parent');
        if (parent && contextOf(parent) !== 'html') errors.push('not_a_container@operation.parent');
        if (!target || !parent || before === undefined || errors.length) return undefined;
        const anchor = before === target ? target.next : before;
        removeElement(target);
        place(parent, anchor, target);
        return [target];
      }
      case 'remove': {
        const target = notBody(resolve(op.target, 'operation.target'), 'operation.target');
        if (!target) return undefined;
        removeElement(target);
        return [];
      }
      case 'duplicate': {
        const target = notBody(resolve(op.target, 'operation.target'), 'operation.target');
        if (!target) return undefined;
        const copy = cloneNode(target, true);
        const taken = new Set<string>();
        const gather = (nodes: ChildNode[]): void => {
          for (const node of nodes) {
            if (!isTag(node)) continue;
            const id = idOf(node);
            if (id !== null) taken.add(id);
            gather(node.children);
          }
        };
        gather(this.doc.children);
        const rename = (element: Element): void => {
          const id = element.attribs['id'];
          if (id) {
            let suffix = 2;
            while (taken.has(`${id}-${suffix}`)) suffix++;
            element.attribs['id'] = `${id}-${suffix}`;
            taken.add(`${id}-${suffix}`);
          }
          for (const child of element.children) if (isTag(child)) rename(child);
        };
        rename(copy);
        place(target.parent as Element, target.next, copy);
        return [copy];
      }
      case 'replace': {
        const target = notBody(resolve(op.target, 'operation.target'), 'operation.target');
        const nodes = nodesFor(target?.parent as Element | undefined, 'operation.target', false);
        if (!target || !nodes || errors.length) return undefined;
        const parent = target.parent as Element;
        const anchor = target.next;
        removeElement(target);
        for (const node of nodes) place(parent, anchor, node);
        return nodes.filter(isTag);
      }
      case 'swap': {
        const target = resolve(op.target, 'operation.target');
        const nodes = nodesFor(target, 'operation.target', true);
        if (!target || !nodes || errors.length) return undefined;
        for (const child of [...target.children]) removeElement(child);
        for (const node of nodes) appendChild(target, node);
        return [target];
      }
    }
  }
}

function place(parent: Element, before: ChildNode | null, node: ChildNode): void {
  if (before) prepend(before, node);
  else appendChild(parent, node);
}

function contains(ancestor: Element, node: Element): boolean {
  for (let current: Element | null = node; current; current = current.parent as Element | null) {
    if (current === ancestor) return true;
  }
  return false;
}

/** What a parent accepts: elements (`html`), text only, or nothing (`void`). */
function contextOf(parent: Element): 'html' | 'text' | 'void' {
  let foreign = false;
  for (
    let node = parent.parent as Element | null;
    node && isTag(node);
    node = node.parent as Element | null
  ) {
    if (integration.has(node.name)) break;
    if (node.name === 'svg' || node.name === 'math') {
      foreign = true;
      break;
    }
  }
  if (textOnly.has(parent.name) && !foreign) return 'text';
  if (parent.name === 'svg' || parent.name === 'math' || foreign) return 'html';
  return voids.has(parent.name) ? 'void' : 'html';
}

function idOf(element: Element): string | null {
  const id = element.attribs['id'];
  return id ? decodeHTMLAttribute(id) : null;
}

function textOf(node: Element): string {
  let out = '';
  for (const child of node.children) {
    if (isText(child)) out += rawText.has(node.name) ? child.data : decodeHTML(child.data);
    else if (isTag(child)) out += textOf(child);
  }
  return out;
}
