import { addFacts, formatOfPath } from '@galley/core';
import type { ContentFacts, KnownFacts } from '@galley/core';
import { WeightedLru } from '../../weighted-lru.js';

/** Facts of this many contents are kept (a few hundred bytes each). */
const MAX_ENTRIES = 50_000;

export interface InspectedContent {
  path: string;
  sha256: string;
  size: number;
}

/**
 * What inspections read from each content (ContentFacts), by SHA-256 and format, so that a new
 * revision of a large production reads again only the files it changes. Content never changes
 * under its SHA-256 and the facts are a pure function of it: nothing to invalidate, in this
 * process or across several. Least recently used contents leave first.
 */
export class ContentFactsMemo {
  /** By SHA-256, then format (a content is read in one format but for a misnamed copy). */
  readonly #facts = new WeightedLru<string, Map<string, ContentFacts>>(MAX_ENTRIES);

  /**
   * The facts known of `files`' contents, and the files an inspection must read (`unread`, of
   * `unreadBytes` in all): contents of unknown facts, and JSON (parsed for its schema).
   */
  known<F extends InspectedContent>(
    files: readonly F[],
  ): { known: KnownFacts; unread: F[]; unreadBytes: number } {
    const known = new Map<string, Map<string, ContentFacts>>();
    const unread: F[] = [];
    let unreadBytes = 0;
    for (const file of files) {
      const { path, sha256, size } = file;
      const format = formatOfPath(path);
      const facts = format === undefined ? undefined : this.#facts.get(sha256)?.get(format);
      if (facts) addFacts(known, format!, sha256, facts);
      if (facts && format !== 'json') continue;
      unread.push(file);
      unreadBytes += size;
    }
    return { known, unread, unreadBytes };
  }

  learn(learned: KnownFacts): void {
    for (const [format, byContent] of learned) {
      for (const [sha256, facts] of byContent) {
        const formats = this.#facts.get(sha256) ?? new Map<string, ContentFacts>();
        formats.set(format, facts);
        this.#facts.set(sha256, formats, formats.size);
      }
    }
  }
}
