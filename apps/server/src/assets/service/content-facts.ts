import { contentKey, formatOfPath } from '@galley/core';
import type { ContentFacts } from '@galley/core';
import { WeightedLru } from '../../weighted-lru.js';

/** Facts of this many contents are kept (a few hundred bytes each). */
const MAX_ENTRIES = 50_000;

export interface InspectedContent {
  path: string;
  sha256: string;
  size: number;
}

/**
 * What inspections read from each content (ContentFacts), by format and SHA-256, so that a new
 * revision of a large production reads again only the files it changes. Content never changes
 * under its SHA-256 and the facts are a pure function of it: nothing to invalidate, in this
 * process or across several. Least recently used contents leave first.
 */
export class ContentFactsMemo {
  readonly #facts = new WeightedLru<string, ContentFacts>(MAX_ENTRIES);

  /**
   * The facts known of `files`' contents, by `contentKey`, and the bytes an inspection must
   * read again: contents of unknown facts, and JSON (parsed for its schema).
   */
  known(files: readonly InspectedContent[]): {
    known: Record<string, ContentFacts>;
    unreadBytes: number;
  } {
    const known: Record<string, ContentFacts> = {};
    let unreadBytes = 0;
    for (const { path, sha256, size } of files) {
      const format = formatOfPath(path);
      const key = format === undefined ? undefined : contentKey(format, sha256);
      const facts = key === undefined ? undefined : this.#facts.get(key);
      if (facts) known[key!] = facts;
      if (!facts || format === 'json') unreadBytes += size;
    }
    return { known, unreadBytes };
  }

  learn(learned: Readonly<Record<string, ContentFacts>>): void {
    for (const [key, facts] of Object.entries(learned)) this.#facts.set(key, facts, 1);
  }
}
