import type { ChildNode, Element, ParentNode } from 'domhandler';
import { maxNesting } from '../html/page.js';
import { forEachElement, heightOf, isElement, isInside } from './dom.js';
import { cloneDeep } from './element.js';
import type { DraftError } from './errors.js';
import { draftError } from './errors.js';
import { parseFragment } from './fragment.js';
import { contentModel } from './html.js';
import type { Group, IndexedPage, Place } from './page.js';
import type { Operation } from './schema.js';
import { attributeValue } from './attributes.js';

/** One move of a group of nodes into (`in`) or out of (`out`) the tree. */
export interface Step {
  readonly kind: 'in' | 'out';
  readonly group: Group;
  /** For `in`, where the group goes; for `out`, where it was (noted when the step runs). */
  place: Place | undefined;
}

/**
 * An operation turned into steps, with what it answers: `focus` after it is applied or redone,
 * `undoFocus` after it is undone. Running the steps backwards is its inverse.
 */
export interface Change {
  readonly operation: Operation;
  readonly steps: readonly Step[];
  readonly focus: readonly Element[];
  readonly undoFocus: readonly Element[];
}

export type Planned = { ok: true; change: Change } | { ok: false; errors: DraftError[] };

/** Resolves and checks an operation against the page without changing anything. */
export function plan(page: IndexedPage, operation: Operation): Planned {
  const errors: DraftError[] = [];
  const check = new Checks(page, errors);
  const done = (steps: Step[], focus: Element[], undoFocus: Element[]): Planned =>
    errors.length > 0
      ? { ok: false, errors }
      : { ok: true, change: { operation, steps, focus, undoFocus } };

  switch (operation.kind) {
    case 'insert': {
      const parent = check.resolve(operation.parent, 'operation.parent');
      const before = check.before(operation.before, parent);
      const nodes = check.fragment(operation.html, parent, 'operation.parent', false);
      if (!parent || !nodes || before === undefined) return done([], [], []);
      return done([into(nodes, { parent, before })], nodes.filter(isElement), []);
    }
    case 'move': {
      const target = check.notBody(
        check.resolve(operation.target, 'operation.target'),
        'operation.target',
      );
      const parent = check.resolve(operation.parent, 'operation.parent');
      const before = check.before(operation.before, parent);
      const intoSelf = target !== undefined && parent !== undefined && isInside(parent, target);
      if (intoSelf) errors.push(draftError('move_into_self', 'operation.parent'));
      if (parent && !check.holdsElements(parent, 'operation.parent')) return done([], [], []);
      if (!target || !parent || before === undefined) return done([], [], []);
      if (!intoSelf) check.fitsIn(target, parent, 'operation.parent');
      const group: Group = { nodes: [target], piece: undefined };
      const anchor = before === target ? target.next : before;
      return done(
        [out(group), { kind: 'in', group, place: { parent, before: anchor } }],
        [target],
        [target],
      );
    }
    case 'remove': {
      const target = check.notBody(
        check.resolve(operation.target, 'operation.target'),
        'operation.target',
      );
      if (!target) return done([], [], []);
      return done([out({ nodes: [target], piece: undefined })], [], [target]);
    }
    case 'duplicate': {
      const target = check.notBody(
        check.resolve(operation.target, 'operation.target'),
        'operation.target',
      );
      if (!target) return done([], [], []);
      const copy = cloneDeep(target);
      giveFreeIds(copy, page);
      return done(
        [into([copy], { parent: target.parent as Element, before: target.next })],
        [copy],
        [],
      );
    }
    case 'replace': {
      const target = check.notBody(
        check.resolve(operation.target, 'operation.target'),
        'operation.target',
      );
      const parent = target ? (target.parent as Element) : undefined;
      const nodes = check.fragment(operation.html, parent, 'operation.target', false);
      if (!target || !parent || !nodes) return done([], [], []);
      const steps = [
        out({ nodes: [target], piece: undefined }),
        into(nodes, { parent, before: target.next }),
      ];
      return done(steps, nodes.filter(isElement), [target]);
    }
    case 'swap': {
      // <body> (@0) may be swapped: its content changes, the element itself stays.
      const target = check.resolve(operation.target, 'operation.target');
      const nodes = check.fragment(operation.html, target, 'operation.target', true);
      if (!target || !nodes) return done([], [], []);
      const steps: Step[] = [];
      if (target.children.length > 0)
        steps.push(out({ nodes: target.children.slice(), piece: undefined }));
      if (nodes.length > 0) steps.push(into(nodes, { parent: target, before: null }));
      return done(steps, [target], [target]);
    }
  }
}

function into(nodes: ChildNode[], place: Place): Step {
  return { kind: 'in', group: { nodes, piece: undefined }, place };
}

function out(group: Group): Step {
  return { kind: 'out', group, place: undefined };
}

/** The checks shared by the operation kinds; each records its refusal and returns undefined. */
class Checks {
  constructor(
    private readonly page: IndexedPage,
    private readonly errors: DraftError[],
  ) {}

  resolve(reference: string, field: string): Element | undefined {
    const element = reference.startsWith('@')
      ? this.page.elementAt(Number(reference.slice(1)))
      : this.page.elementWithId(reference.slice(1));
    if (!element) {
      this.errors.push(
        draftError(
          'unresolved_reference',
          field,
          `${reference} does not resolve to an element inside <body>.`,
        ),
      );
    }
    return element;
  }

  notBody(element: Element | undefined, field: string): Element | undefined {
    if (element !== this.page.body) return element;
    this.errors.push(draftError('body_not_allowed', field));
    return undefined;
  }

  /** `before`: null when absent (at the end); undefined when refused. */
  before(reference: string | undefined, parent: Element | undefined): Element | null | undefined {
    if (reference === undefined) return null;
    const before = this.notBody(this.resolve(reference, 'operation.before'), 'operation.before');
    if (before && parent && before.parent !== parent) {
      this.errors.push(
        draftError('not_a_child', 'operation.before', `${reference} is not a child of the parent.`),
      );
      return undefined;
    }
    return before;
  }

  holdsElements(parent: Element, field: string): boolean {
    const kind = contentModel(parent, this.page.body).kind;
    if (kind === 'html' || kind === 'svg' || kind === 'math') return true;
    this.errors.push(
      draftError('not_a_container', field, `<${parent.name}> cannot hold child elements.`),
    );
    return false;
  }

  /**
   * Refuses (`too_deep`) to put `element` into `parent` when its deepest element would then lie
   * more than `maxNesting` levels down, the limit fragments and pages are held to. Without this, a
   * copy moved into its own original doubles the depth, until serializing and outlining the page
   * (recursive walks) overflow the stack. Landing no deeper than it sits now, `element` nests
   * nothing deeper than the page already does (no walk needed; a page opened without a <body> tag
   * may sit one level past the limit, and its elements can still be reordered); otherwise the
   * walk goes no further than the room left below `parent`.
   */
  fitsIn(element: Element, parent: Element, field: string): void {
    const parentDepth = depthOf(parent);
    if (parentDepth < depthOf(element)) return;
    const room = maxNesting - parentDepth;
    if (heightOf(element, room) <= room) return;
    this.errors.push(
      draftError(
        'too_deep',
        field,
        `Moved there, the element would nest elements deeper than the page allows (${maxNesting} levels).`,
      ),
    );
  }

  /** Parses `html` for the content of `parent` (as plain HTML when the parent is unknown). */
  fragment(
    html: string,
    parent: Element | undefined,
    parentField: string,
    allowEmpty: boolean,
  ): ChildNode[] | undefined {
    const model = parent ? contentModel(parent, this.page.body) : ({ kind: 'html' } as const);
    if (model.kind === 'none') {
      this.errors.push(
        draftError('not_a_container', parentField, `<${parent?.name ?? ''}> cannot hold content.`),
      );
      return undefined;
    }
    const fragment = parseFragment(html, model, {
      allowEmpty,
      maxDepth: maxNesting - (parent ? depthOf(parent) : 0),
    });
    if (fragment.ok) return fragment.nodes;
    this.errors.push(draftError('malformed_html', 'operation.html', fragment.problem));
    return undefined;
  }
}

/** Gives every id inside a fresh copy the first free suffix (`-2`, `-3`, …). */
function giveFreeIds(copy: Element, page: IndexedPage): void {
  const given = new Set<string>();
  forEachElement([copy], (element) => {
    const raw = element.attribs['id'];
    if (raw === undefined || raw === '') return;
    for (let suffix = 2; ; suffix++) {
      const candidate = `${raw}-${suffix}`;
      const id = attributeValue(candidate);
      if (!page.idTaken(id) && !given.has(id)) {
        element.attribs['id'] = candidate;
        given.add(id);
        return;
      }
    }
  });
}

/** Elements from the root down to `element`, itself included. */
function depthOf(element: Element): number {
  let depth = 0;
  for (let node: ParentNode | null = element; node && isElement(node); node = node.parent) depth++;
  return depth;
}
