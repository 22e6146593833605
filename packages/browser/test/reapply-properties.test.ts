// Property-based: random pages, a person's random editing (undos included) on the base, another
// person's random saved edits, then the plan. Every element carries a `data-k` key the planner
// never reads (it matches by tag, id, classes and text), so a test can tell which element is
// which: the one the person chose, or another.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft, Operation } from '@galley/core';
import { planReapply } from '../src/screen/editor/reapply.js';
import { childrenOf, open, result } from './reapply-helpers.js';

const numRuns = process.env['CI'] ? 400 : 150;

// ---- pages ---------------------------------------------------------------------------------

/** Shapes of a section's blocks, each a number 0–4. */
const pages = fc.array(fc.array(fc.nat(4), { minLength: 1, maxLength: 4 }), {
  minLength: 2,
  maxLength: 4,
});

function pageOf(sections: readonly (readonly number[])[]): string {
  let n = 0;
  const k = () => `data-k="b${n++}"`;
  const block = (shape: number): string => {
    const t = n;
    switch (shape) {
      case 0:
        return `<p ${k()}>Text ${t}</p>`;
      case 1:
        return `<p class="lead" ${k()}>Text ${t}</p>`;
      case 2:
        return `<p id="p${t}" ${k()}>Text ${t}</p>`;
      case 3:
        return `<div ${k()}><p ${k()}>Text ${t}</p><p ${k()}>More ${t}</p></div>`;
      default:
        return `<ul ${k()}><li ${k()}>Item ${t}</li><li id="li${t}" ${k()}>Item ${t} b</li></ul>`;
    }
  };
  const body = sections
    .map(
      (blocks, s) =>
        `<section id="s${s}" ${k()}><h2 ${k()}>Section ${s}</h2>${blocks.map(block).join('')}</section>`,
    )
    .join('');
  return (
    '<!doctype html><html><head><title>T</title></head><body>' +
    `<header ${k()}><h1 ${k()}>Site</h1></header><main id="main" ${k()}>${body}</main>` +
    `<footer ${k()}><p ${k()}>Footer</p></footer></body></html>`
  );
}

// ---- reading a draft -----------------------------------------------------------------------

const tagAt = (draft: Draft, n: number) => draft.outline()[n - 1]!.tag;

/** The sections, children of <main> in order (<main>'s id is never given twice). */
function sections(draft: Draft): number[] {
  return childrenOf(draft, draft.outline().find((e) => e.id === 'main')!.node);
}

/** Element `n` and everything inside it. */
function subtree(draft: Draft, n: number): number[] {
  const depths = draft.outlineDepths();
  const numbers = [n];
  for (let m = n + 1; m <= depths.length && depths[m - 1]! > depths[n - 1]!; m++) numbers.push(m);
  return numbers;
}

/** What may go into an element of each tag, so the HTML parses back as it was written. */
const holds = (tag: string): 'block' | 'item' | 'inline' | null =>
  tag === 'section' || tag === 'div'
    ? 'block'
    : tag === 'ul'
      ? 'item'
      : tag === 'p' || tag === 'li'
        ? 'inline'
        : null;
const kindOf = (tag: string) =>
  tag === 'li'
    ? 'item'
    : tag === 'span' || tag === 'em'
      ? 'inline'
      : tag === 'h2'
        ? 'heading'
        : 'block';

function fragment(kind: string, n: number, key: string, choice: number): string {
  const k = `data-k="${key}${n}"`;
  if (kind === 'item') return `<li ${k}>Item new ${n}</li>`;
  if (kind === 'inline') return `<span class="x" ${k}>Span ${n}</span>`;
  if (kind === 'heading') return `<h2 ${k}>Heading ${n}</h2>`;
  return [
    `<p ${k}>New ${n}</p>`,
    `<p id="${key}${n}" ${k}>New with id ${n}</p>`,
    `<div ${k}><p data-k="${key}${n}i">Deep ${n}</p></div>`,
  ][choice % 3]!;
}

function swapHtml(tag: string, n: number, key: string): string {
  const k = `data-k="${key}${n}"`;
  if (tag === 'ul') return `<li ${k}>Swapped ${n}</li>`;
  if (tag === 'div' || tag === 'section') return `<p ${k}>Swapped ${n}</p>`;
  return `Swapped <em ${k}>${n}</em>`;
}

/** `#id` when the id names this element only, else `@n`. */
function reference(draft: Draft, n: number, viaId: boolean): string {
  const id = draft.outline()[n - 1]!.id;
  const holders = id === null ? 0 : draft.outline().filter((e) => e.id === id).length;
  return viaId && holders === 1 && !/\s/.test(id!) ? `#${id}` : `@${n}`;
}

const pick = <T>(list: readonly T[], seed: number): T | undefined =>
  list.length === 0 ? undefined : list[seed % list.length];

/** A child of `parent` to go before, or none (the end). */
function beforeIn(draft: Draft, parent: number, seed: number, viaId: boolean) {
  const children = childrenOf(draft, parent);
  const child = seed % (children.length + 1) === children.length ? undefined : pick(children, seed);
  return child === undefined ? {} : { before: reference(draft, child, viaId) };
}

// ---- editing ---------------------------------------------------------------------------------

const kinds = ['insert', 'move', 'remove', 'duplicate', 'replace', 'swap', 'undo'] as const;
const seeds = fc.record({
  kind: fc.constantFrom(...kinds),
  picks: fc.array(fc.nat(1000), { minLength: 3, maxLength: 3 }),
  viaId: fc.boolean(),
});
type Seed = { kind: (typeof kinds)[number]; picks: number[]; viaId: boolean };

/**
 * One random edit inside `region` (element numbers that may be changed) with `homes` (where
 * elements may go): an operation, or undefined when the seed finds nothing to do.
 */
function edit(
  draft: Draft,
  seed: Seed,
  n: number,
  key: string,
  region: readonly number[],
  homes: readonly number[],
): Operation | undefined {
  const [p0 = 0, p1 = 0, p2 = 0] = seed.picks;
  const ref = (m: number) => reference(draft, m, seed.viaId);
  const target = pick(region, p0);
  switch (seed.kind) {
    case 'insert': {
      const parent = pick(homes, p0);
      const kind = parent === undefined ? null : holds(tagAt(draft, parent));
      if (parent === undefined || !kind) return undefined;
      const html = fragment(kind, n, key, p2);
      return {
        kind: 'insert',
        parent: ref(parent),
        html,
        ...beforeIn(draft, parent, p1, seed.viaId),
      };
    }
    case 'move': {
      if (target === undefined) return undefined;
      const kind = kindOf(tagAt(draft, target));
      const inside = new Set(subtree(draft, target));
      const fits = homes.filter((h) => holds(tagAt(draft, h)) === kind && !inside.has(h));
      const parent = pick(fits, p1);
      if (parent === undefined) return undefined;
      return {
        kind: 'move',
        target: ref(target),
        parent: ref(parent),
        ...beforeIn(draft, parent, p2, seed.viaId),
      };
    }
    case 'remove':
    case 'duplicate':
      return target === undefined ? undefined : { kind: seed.kind, target: ref(target) };
    case 'replace': {
      if (target === undefined) return undefined;
      const html = fragment(kindOf(tagAt(draft, target)), n, key, p2);
      return { kind: 'replace', target: ref(target), html };
    }
    case 'swap': {
      if (target === undefined) return undefined;
      return { kind: 'swap', target: ref(target), html: swapHtml(tagAt(draft, target), n, key) };
    }
    case 'undo':
      return undefined;
  }
}

/** Everything inside the chosen sections (the sections themselves stay). */
function inside(draft: Draft, chosen: readonly number[]) {
  const all = sections(draft);
  const own = chosen.map((s) => all[s]!);
  const region = own.flatMap((s) => subtree(draft, s).slice(1));
  return { own, region, homes: [...own, ...region] };
}

/** The person's editing of their sections: the operations in effect, and the draft. */
function personEdits(base: string, mine: readonly number[], steps: readonly Seed[]) {
  const draft = open(base);
  steps.forEach((seed, n) => {
    if (seed.kind === 'undo') return void draft.undo();
    const { region, homes } = inside(draft, mine);
    const operation = edit(draft, seed, n, 'm', region, homes);
    if (operation) draft.apply(operation); // a refused one is not in the log
  });
  const log = draft.log();
  return { draft, operations: log.operations.slice(0, log.applied) };
}

const theirKinds = ['text', 'above', 'insert', 'remove', 'move', 'same-id'] as const;
const theirSeeds = fc.record({
  kind: fc.constantFrom(...theirKinds),
  picks: fc.array(fc.nat(1000), { minLength: 3, maxLength: 3 }),
});
type TheirSeed = { kind: (typeof theirKinds)[number]; picks: number[] };

/**
 * The other person's saved edits, inside `theirs` (section indexes), at the top of the page,
 * and elements with ids taken from the person's sections.
 */
function otherEdits(
  base: string,
  theirs: readonly number[],
  mine: readonly number[],
  steps: readonly TheirSeed[],
) {
  const draft = open(base);
  const mineIds = inside(draft, mine).homes.flatMap((m) => draft.outline()[m - 1]!.id ?? []);
  steps.forEach((seed, n) => {
    const [p0 = 0, p1 = 0, p2 = 0] = seed.picks;
    const { region, homes } = inside(draft, theirs);
    const top = childrenOf(draft, 0);
    const main = draft.outline().find((e) => e.id === 'main')!.node;
    const outside = top.filter((t) => t !== main).flatMap((t) => subtree(draft, t));
    const texts = [...region, ...outside].filter(
      (m) => ['p', 'li', 'h1', 'h2'].includes(tagAt(draft, m)) && childrenOf(draft, m).length === 0,
    );
    const asEdit = (kind: Seed['kind']) =>
      edit(draft, { kind, picks: seed.picks, viaId: false }, n, 't', region, homes);
    const above = (html: string): Operation => ({
      kind: 'insert',
      parent: '@0',
      html,
      before: `@${pick(top, p1)!}`,
    });
    let operation: Operation | undefined;
    switch (seed.kind) {
      case 'text': {
        const target = pick(texts, p0);
        if (target !== undefined)
          operation = { kind: 'swap', target: `@${target}`, html: `Changed ${n}` };
        break;
      }
      case 'above':
        operation = above(
          [
            `<nav data-k="t${n}"><a href="/">Home</a></nav>`,
            `<div class="banner" data-k="t${n}">Banner ${n}</div>`,
            `<section data-k="t${n}"><h2>Promo ${n}</h2></section>`,
          ][p2 % 3]!,
        );
        break;
      case 'same-id': {
        const id = pick(mineIds, p0);
        if (id === undefined) break;
        // Another kind of element with the person's id: never the person's element.
        const html = `<aside id="${id}" data-k="t${n}">Same id ${n}</aside>`;
        const parent = pick(
          homes.filter((h) => holds(tagAt(draft, h)) === 'block'),
          p2,
        );
        operation =
          p2 % 2 === 0 || parent === undefined
            ? above(html)
            : { kind: 'insert', parent: `@${parent}`, html };
        break;
      }
      default:
        operation = asEdit(seed.kind);
    }
    if (operation) draft.apply(operation);
  });
  return draft.html();
}

/** The newer page with the person's sections as the person left them. */
function expected(current: string, person: Draft, mine: readonly number[]): string {
  const draft = open(current);
  for (const s of mine) {
    const outer = person.elements.outerHtml(person.elements.at(sections(person)[s]!)!);
    const inner = outer.replace(/^<section[^>]*>/, '').replace(/<\/section>$/, '');
    const applied = draft.apply({ kind: 'swap', target: `@${sections(draft)[s]!}`, html: inner });
    expect(applied.ok).toBe(true);
  }
  return draft.html();
}

/**
 * A page, the person's sections (at least one) and the other person's (the rest), the person's
 * editing of theirs, and the other person's seeds (each test says where those apply).
 */
const scenarios = fc
  .record({
    shape: pages,
    mask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    mySteps: fc.array(seeds, { maxLength: 14 }),
    theirSteps: fc.array(theirSeeds, { maxLength: 8 }),
  })
  .map(({ shape, mask, mySteps, theirSteps }) => {
    const all = [...shape.keys()];
    const picked = all.filter((s) => mask[s]);
    const mine = picked.length > 0 ? picked : [0];
    const base = pageOf(shape);
    return {
      base,
      all,
      mine,
      theirs: all.filter((s) => !mine.includes(s)),
      person: personEdits(base, mine, mySteps),
      theirSteps,
    };
  });

// ---- properties ----------------------------------------------------------------------------

describe('planReapply, properties', () => {
  it('re-applies every operation onto the same elements when the other person edited elsewhere', () => {
    fc.assert(
      fc.property(scenarios, ({ base, mine, theirs, person, theirSteps }) => {
        const current = otherEdits(base, theirs, mine, theirSteps);
        const plan = planReapply(base, person.operations, current);
        expect(plan.skipped).toEqual([]);
        expect(plan.operations).toHaveLength(person.operations.length);
        expect(result(current, plan)).toBe(expected(current, person.draft, mine));
      }),
      { numRuns },
    );
  });

  it('never lands an operation on another element, whatever the other person did', () => {
    fc.assert(
      fc.property(scenarios, ({ base, all, mine, person, theirSteps }) => {
        // The other person edits everywhere, the person's sections included.
        const current = otherEdits(base, all, mine, theirSteps);
        const plan = planReapply(base, person.operations, current);
        expect(plan.operations.length + plan.skipped.length).toBe(person.operations.length);
        sameElements(base, person.operations, current, plan.operations, plan.skipped);
      }),
      { numRuns },
    );
  });
});

/**
 * Replays both sides and checks, for every operation sent, that each reference names an element
 * with the same key (`data-k`) as the person's reference did.
 */
function sameElements(
  base: string,
  operations: readonly Operation[],
  current: string,
  sent: readonly Operation[],
  skipped: readonly { index: number }[],
) {
  const a = open(base);
  const b = open(current);
  const left = new Set(skipped.map((s) => s.index));
  let next = 0;
  operations.forEach((operation, index) => {
    if (left.has(index)) return void a.apply(operation);
    const theirs = sent[next++]!;
    for (const field of ['target', 'parent', 'before'] as const) {
      const mine = (operation as Partial<Record<typeof field, string>>)[field];
      if (mine === undefined) continue;
      const there = (theirs as Partial<Record<typeof field, string>>)[field]!;
      expect(keyOf(b, there), `${field} of operation ${index}`).toBe(keyOf(a, mine));
    }
    expect(a.apply(operation).ok).toBe(true);
    expect(b.apply(theirs).ok).toBe(true);
  });
}

function keyOf(draft: Draft, reference: string): string | undefined {
  const number = reference.startsWith('@')
    ? Number(reference.slice(1))
    : draft.outline().find((e) => e.id === reference.slice(1))!.node;
  if (number === 0) return 'body';
  const handle = draft.elements.at(number)!;
  return draft.elements.attributesOf(handle).find(([name]) => name === 'data-k')?.[1];
}
