// Re-applies a person's draft onto a newer saved revision of its page. The draft was started on
// an older revision (its base) and someone saved another revision meanwhile; its operations are
// replayed on two drafts side by side, A on the base and B on the newer revision, and each
// reference is carried from A's element to the SAME element of B, or the operation is skipped:
// a change lands on the element its author chose, or nowhere. The drafts come from the library
// (`galley.min.js`, the global `Galley`), as everywhere on the screen: the screen's script keeps
// no second copy of the draft engine.
import type {
  Draft,
  DraftError,
  DraftErrorCode,
  ElementHandle,
  Operation,
  Outline,
} from '@galley/core';
import { library } from '../library.js';

export type ReapplyPlan = {
  /** To send in order to a fresh draft on the newer revision, each valid at its own step. */
  operations: Operation[];
  /** The operations left out, by their index in the input, with a reason a person reads. */
  skipped: { index: number; operation: Operation; reason: string }[];
};

/**
 * Plans the re-application of `operations` (those in effect, in order, each with references
 * valid for the base draft at its step) onto `currentHtml`. An element matches its counterpart
 * in the newer revision:
 * - through the results of earlier operations (the same HTML inserted or duplicated on both
 *   sides: new elements pair up in pre-order; a copy's elements pair as their originals do);
 * - by id, when the id is unique in both versions and both elements have the same tag (an
 *   element removed and another of another kind given its id is not taken for it);
 * - otherwise only when its path from the nearest ancestor that matched (or <body>), each step a
 *   tag and an index among the siblings of that tag, leads to an element of the same tag, id,
 *   classes and outline text.
 * Once matched, two elements stay paired while the replay moves them. An operation with a
 * reference that matches nothing, that the newer revision refuses, or that depends on an element
 * a skipped operation created, is skipped.
 */
export function planReapply(
  baseHtml: string,
  operations: readonly Operation[],
  currentHtml: string,
): ReapplyPlan {
  const plan: ReapplyPlan = { operations: [], skipped: [] };
  const { Draft } = library();
  const base = Draft.open(baseHtml);
  const current = Draft.open(currentHtml);
  if (!base.ok || !current.ok) {
    const reason = !base.ok
      ? 'the revision it was started on cannot be opened'
      : 'the newer revision of the page cannot be opened';
    plan.skipped = operations.map((operation, index) => ({ index, operation, reason }));
    return plan;
  }
  const replay = new Replay(new Side(base.draft), new Side(current.draft));
  operations.forEach((operation, index) => {
    const step = replay.step(operation, index);
    if (typeof step === 'string') plan.skipped.push({ index, operation, reason: step });
    else plan.operations.push(step);
  });
  return plan;
}

type Field = 'target' | 'parent' | 'before';
const fields: readonly Field[] = ['target', 'parent', 'before'];

/** Why an element has no counterpart. */
type Miss =
  | { readonly why: 'gone' | 'changed' }
  /** It was created by operation `index`, which was skipped or came out otherwise in B. */
  | { readonly why: 'skipped' | 'differs'; readonly index: number };
type Match = { readonly b: ElementHandle } | Miss;

/**
 * One version of a draft, read as far as asked: the outline, each element's depth and parent,
 * and (when an id is asked about) who holds each id. Children are found by scanning the
 * pre-order, which a replay of a few hundred operations on a large page affords.
 */
class Version {
  readonly outline: Outline;
  private depthList: readonly number[] | undefined;
  private parentList: Int32Array | undefined;
  /** Each id inside <body>: how many elements hold it, and the first of them. */
  private idMap: Map<string, { count: number; first: number }> | undefined;

  constructor(private readonly draft: Draft) {
    this.outline = draft.outline();
  }

  /** The outline entry of element `number` (1 and up). */
  entry(number: number) {
    return this.outline[number - 1]!;
  }

  /** Depth below <body> (-1 for <body> itself, 0 for its children). */
  depth(number: number): number {
    this.depthList ??= this.draft.outlineDepths();
    return number === 0 ? -1 : this.depthList[number - 1]!;
  }

  parent(number: number): number {
    if (!this.parentList) {
      const parents = new Int32Array(this.outline.length + 1).fill(-1);
      const chain = [0];
      for (let n = 1; n <= this.outline.length; n++) {
        const depth = this.depth(n);
        parents[n] = chain[depth]!;
        chain.length = depth + 1;
        chain.push(n);
      }
      this.parentList = parents;
    }
    return this.parentList[number]!;
  }

  /** The element holding `id` when it is the only one; undefined when none or several do. */
  onlyWithId(id: string): number | undefined {
    const held = this.ids().get(id);
    return held?.count === 1 ? held.first : undefined;
  }

  /** The first element with this id, as a `#id` reference resolves. */
  firstWithId(id: string): number | undefined {
    return this.ids().get(id)?.first;
  }

  private ids() {
    if (!this.idMap) {
      this.idMap = new Map();
      for (const { id, node } of this.outline) {
        if (id === null) continue;
        const held = this.idMap.get(id);
        if (held) held.count += 1;
        else this.idMap.set(id, { count: 1, first: node });
      }
    }
    return this.idMap;
  }

  /** The element children of `parent`, in order. */
  *children(parent: number): Generator<number> {
    const depth = this.depth(parent);
    for (let n = parent + 1; n <= this.outline.length && this.depth(n) > depth; n++)
      if (this.depth(n) === depth + 1) yield n;
  }

  /** Its index among its parent's children of the same tag. */
  indexAmongTag(number: number): number {
    const tag = this.entry(number).tag;
    let index = 0;
    for (const sibling of this.children(this.parent(number))) {
      if (sibling === number) return index;
      if (this.entry(sibling).tag === tag) index += 1;
    }
    return -1;
  }

  /** The `index`th child of `parent` with this tag. */
  childWithTag(parent: number, tag: string, index: number): number | undefined {
    let seen = 0;
    for (const child of this.children(parent)) {
      if (this.entry(child).tag !== tag) continue;
      if (seen === index) return child;
      seen += 1;
    }
    return undefined;
  }

  /** The element and everything inside it, in pre-order. */
  subtree(number: number): number[] {
    const numbers = [number];
    const depth = this.depth(number);
    for (let n = number + 1; n <= this.outline.length && this.depth(n) > depth; n++)
      numbers.push(n);
    return numbers;
  }
}

/** A draft and its current version, read again after each change. */
class Side {
  private current: Version | undefined;

  constructor(readonly draft: Draft) {}

  get version(): Version {
    return (this.current ??= new Version(this.draft));
  }

  apply(operation: Operation) {
    const applied = this.draft.apply(operation);
    if (applied.ok) this.current = undefined;
    return applied;
  }

  handle(number: number): ElementHandle {
    return this.draft.elements.at(number)!;
  }

  numberOf(handle: ElementHandle): number | null {
    return this.draft.elements.numberOf(handle);
  }

  /** The element a reference names in this version, as the draft resolves it. */
  resolve(reference: string): ElementHandle | undefined {
    const number = reference.startsWith('@')
      ? Number(reference.slice(1))
      : this.version.firstWithId(reference.slice(1));
    return number === undefined ? undefined : this.draft.elements.at(number);
  }

  /** The elements an operation created, from its result, in pre-order. */
  created(operation: Operation, nodes: readonly string[]): ElementHandle[] {
    if (operation.kind === 'move' || operation.kind === 'remove') return [];
    const version = this.version;
    return nodes.flatMap((node) => {
      const numbers = version.subtree(Number(node.slice(1)));
      // A swap answers with its target, which stays: only what is inside it is new.
      return (operation.kind === 'swap' ? numbers.slice(1) : numbers).map((n) => this.handle(n));
    });
  }
}

/** The two drafts, stepped together, with what is known of which element is which. */
class Replay {
  private readonly pairs = new Map<ElementHandle, ElementHandle>();
  private readonly paired = new Map<ElementHandle, ElementHandle>();
  /** A's elements created by an operation that was skipped or whose elements did not pair. */
  private readonly orphans = new Map<ElementHandle, Extract<Miss, { index: number }>>();

  constructor(
    private readonly a: Side,
    private readonly b: Side,
  ) {}

  /** The operation to send for `operation`, or why it is skipped. */
  step(operation: Operation, index: number): Operation | string {
    const references = fields.flatMap((field) => {
      const reference = (operation as Partial<Record<Field, string>>)[field];
      return reference === undefined ? [] : [{ field, reference }];
    });
    const resolved = references.map((r) => ({ ...r, element: this.a.resolve(r.reference) }));
    let miss: string | undefined;
    const counterparts = new Map<Field, ElementHandle>();
    if (resolved.every((r) => r.element !== undefined)) {
      for (const { field, element } of resolved) {
        const found = this.match(element!);
        if ('b' in found) counterparts.set(field, found.b);
        else miss ??= missReason(found, phrase(operation.kind, field, this.describe(element!)));
      }
    }
    const target = resolved.find((r) => r.field === 'target')?.element;
    const copies =
      operation.kind === 'duplicate' && target && counterparts.has('target')
        ? this.copyPlan(target, counterparts.get('target')!)
        : null;

    const inA = this.a.apply(operation);
    if (!inA.ok)
      return `it does not apply to the revision it was started on (${codesOf(inA.errors)})`;
    if (resolved.some((r) => r.element === undefined))
      return 'it does not apply to the revision it was started on';
    const createdA = this.a.created(operation, inA.result.nodes);
    const orphan = (why: 'skipped' | 'differs', elements: readonly ElementHandle[]) => {
      for (const element of elements) this.orphans.set(element, { why, index });
    };
    if (miss) {
      orphan('skipped', createdA);
      return miss;
    }

    const sent = withReferences(operation, (field) => this.referenceInB(counterparts.get(field)!));
    const inB = this.b.apply(sent);
    if (!inB.ok) {
      orphan('skipped', createdA);
      return refusalReason(inB.errors);
    }
    const createdB = this.b.created(sent, inB.result.nodes);
    const pairing = copies ?? sameShape(this.a, createdA, this.b, createdB);
    createdA.forEach((element, k) => {
      const j = pairing[k];
      if (j === undefined) orphan('differs', [element]);
      else this.pair(element, createdB[j]!);
    });
    return sent;
  }

  /** B's counterpart of A's element `element` (in A's page at this step). */
  private match(element: ElementHandle): Match {
    const number = this.a.numberOf(element)!;
    return this.direct(element, number) ?? this.byPath(element, number);
  }

  /** What is known without a path: <body>, an earlier pairing, an orphan, a unique id. */
  private direct(element: ElementHandle, number: number): Match | undefined {
    if (number === 0) return { b: this.b.handle(0) };
    const known = this.pairs.get(element);
    if (known) return this.b.numberOf(known) === null ? { why: 'gone' } : { b: known };
    const orphan = this.orphans.get(element);
    if (orphan) return orphan;
    const { id, tag } = this.a.version.entry(number);
    if (id === null || this.a.version.onlyWithId(id) === undefined) return undefined;
    const there = this.b.version.onlyWithId(id);
    if (there === undefined || this.b.version.entry(there).tag !== tag) return undefined;
    return this.pair(element, this.b.handle(there));
  }

  /**
   * The path from the nearest ancestor with a known counterpart (or <body>), tag and index among
   * same-tag siblings at each step, followed in B; the element it leads to must look the same.
   */
  private byPath(element: ElementHandle, number: number): Match {
    const A = this.a.version;
    const B = this.b.version;
    const steps: { tag: string; index: number }[] = [];
    let at = number;
    let from: number | null = null;
    while (from === null) {
      steps.push({ tag: A.entry(at).tag, index: A.indexAmongTag(at) });
      at = A.parent(at);
      const found = this.direct(this.a.handle(at), at);
      if (found && 'b' in found) from = this.b.numberOf(found.b);
      else if (found && found.why !== 'gone') return found;
    }
    let there: number | undefined = from;
    for (let i = steps.length - 1; i >= 0 && there !== undefined; i--)
      there = B.childWithTag(there, steps[i]!.tag, steps[i]!.index);
    if (there === undefined) return { why: 'gone' };
    const mine = A.entry(number);
    const theirs = B.entry(there);
    const same =
      mine.id === theirs.id &&
      mine.text === theirs.text &&
      mine.classes.length === theirs.classes.length &&
      mine.classes.every((name, i) => theirs.classes[i] === name);
    return same ? this.pair(element, this.b.handle(there)) : { why: 'changed' };
  }

  /** Pairs two elements, unless B's is already another element's counterpart. */
  private pair(a: ElementHandle, b: ElementHandle): Match {
    const holder = this.paired.get(b);
    if (holder !== undefined && holder !== a) return { why: 'gone' };
    this.pairs.set(a, b);
    this.paired.set(b, a);
    return { b };
  }

  /**
   * For a duplicate, before it runs: which element of B's copy each element of A's copy will
   * pair with (by index in pre-order), as their originals pair. The copies' ids may differ (each
   * side picks the first free suffix), so their own ids cannot tell.
   */
  private copyPlan(original: ElementHandle, counterpart: ElementHandle): (number | undefined)[] {
    const inA = this.a.version.subtree(this.a.numberOf(original)!);
    const inB = this.b.version.subtree(this.b.numberOf(counterpart)!);
    const place = new Map(inB.map((number, j) => [number, j]));
    return inA.map((number, k) => {
      if (k === 0) return 0;
      const found = this.match(this.a.handle(number));
      return 'b' in found ? place.get(this.b.numberOf(found.b)!) : undefined;
    });
  }

  /** `#id` when B holds that id once, else `@n` in B as it is now. */
  private referenceInB(element: ElementHandle): string {
    const number = this.b.numberOf(element)!;
    const id = number === 0 ? null : this.b.version.entry(number).id;
    const unique = id !== null && this.b.version.onlyWithId(id) === number;
    return unique && idReference.test(id) ? `#${id}` : `@${number}`;
  }

  /** How a person recognizes the element: its kind, id and the start of its text. */
  private describe(element: ElementHandle): string {
    const number = this.a.numberOf(element)!;
    if (number === 0) return 'the page body';
    const { tag, id, text } = this.a.version.entry(number);
    const noun = nouns[tag] ?? `<${tag}> element`;
    const shown = [...text];
    const quote = shown.length > 32 ? `${shown.slice(0, 30).join('').trimEnd()}…` : text;
    return `the ${noun}${id === null ? '' : ` #${id}`}${quote ? ` “${quote}”` : ''}`;
  }
}

/** An id a `#id` reference can spell (no ASCII white space). */
const idReference = /^[^\t\n\f\r ]+$/;

/** The operation with each reference replaced. */
function withReferences(operation: Operation, reference: (field: Field) => string): Operation {
  const copy: Record<string, unknown> = { ...operation };
  for (const field of fields) if (typeof copy[field] === 'string') copy[field] = reference(field);
  return copy as Operation;
}

/**
 * Pairs created elements index by index when both sides created the same tags in the same
 * order (the same HTML parsed in the same kind of place); otherwise none pair.
 */
function sameShape(
  a: Side,
  createdA: readonly ElementHandle[],
  b: Side,
  createdB: readonly ElementHandle[],
): (number | undefined)[] {
  const tags = (side: Side, list: readonly ElementHandle[]) =>
    list.map((handle) => side.draft.elements.tagOf(handle)).join(' ');
  const same = createdA.length === createdB.length && tags(a, createdA) === tags(b, createdB);
  return createdA.map((_, k) => (same ? k : undefined));
}

/** "the paragraph “…” it removed", "the section “…” it added content to", … */
function phrase(kind: Operation['kind'], field: Field, element: string): string {
  if (field === 'parent')
    return `${element} it ${kind === 'insert' ? 'added content to' : 'moved an element into'}`;
  if (field === 'before')
    return `${element} it placed ${kind === 'insert' ? 'content' : 'an element'} before`;
  return `${element} ${targetVerbs[kind]}`;
}

const targetVerbs: Record<Operation['kind'], string> = {
  insert: 'it added to',
  move: 'it moved',
  remove: 'it removed',
  duplicate: 'it duplicated',
  replace: 'it replaced',
  swap: 'whose content it replaced',
};

function missReason(miss: Miss, what: string): string {
  switch (miss.why) {
    case 'gone':
      return `${what} is no longer on the page`;
    case 'changed':
      return `${what} was changed or removed by someone else meanwhile`;
    case 'skipped':
      return `${what} was added by change ${miss.index + 1}, which was skipped`;
    case 'differs':
      return `${what} was added by change ${miss.index + 1}, which came out differently on the newer page`;
  }
}

/** B's refusals in a person's words. */
const refusals: Partial<Record<DraftErrorCode, string>> = {
  not_a_child:
    'on the newer page, the element it was placed before is no longer inside the element it went into',
  not_a_container: 'on the newer page, the element it went into cannot hold it',
  move_into_self: 'on the newer page, the element it moved holds the place it was moved to',
  malformed_html: 'its HTML does not fit where it goes on the newer page',
  too_deep: 'on the newer page it would nest elements more deeply than a page may',
};

function refusalReason(errors: readonly DraftError[]): string {
  const first = errors[0];
  const known = first && refusals[first.code];
  return known ?? `the newer page refused it (${codesOf(errors)})`;
}

const codesOf = (errors: readonly DraftError[]) =>
  errors.map((error) => `${error.code}: ${error.message}`).join('; ');

/** What a person calls an element of each tag. */
const nouns: Readonly<Record<string, string>> = {
  a: 'link',
  article: 'article',
  aside: 'aside',
  blockquote: 'quotation',
  button: 'button',
  div: 'block',
  figcaption: 'caption',
  figure: 'figure',
  footer: 'footer',
  form: 'form',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  header: 'header',
  img: 'image',
  input: 'input field',
  label: 'label',
  li: 'list item',
  main: 'main content',
  nav: 'navigation',
  ol: 'list',
  p: 'paragraph',
  section: 'section',
  span: 'span',
  table: 'table',
  td: 'table cell',
  th: 'table heading',
  tr: 'table row',
  ul: 'list',
  video: 'video',
};
