import type { Violation } from '../report/violation.js';
import { fileFormatViolation, type FileReader } from '../files/file-format.js';
import type { DimensionResult } from '../files/dimensions.js';

/**
 * What an inspection reads from one file's content in one format: the `formats` rule its bytes
 * break (content not what the extension says, not UTF-8, invalid JSON, active SVG, an image
 * unreadable or beyond the bounds), and its pixel size. A pure function of the format and the
 * bytes, so it is known again (`KnownFacts`) for any path with the same extension and content.
 */
export interface ContentFacts {
  /** The violation as found at the path first inspected; another path takes its own. */
  readonly problem: Violation | undefined;
  readonly dimensions: DimensionResult | undefined;
}

/**
 * Facts of contents, by format, then by the content's SHA-256 (hex). Two levels, not one key
 * joined from both: a key made at each lookup (a new string, hashed again) cost a revision of
 * 2,000 files more than the rest of the lookup; a content's SHA-256 is one string, hashed once.
 */
export type KnownFacts = ReadonlyMap<string, ReadonlyMap<string, ContentFacts>>;

/** The facts of `sha256` read as `format`, if `known` holds them. */
export const knownFacts = (known: KnownFacts | undefined, format: string, sha256: string) =>
  known?.get(format)?.get(sha256);

/** Adds the facts of `sha256` read as `format` to `into`. */
export function addFacts(
  into: Map<string, Map<string, ContentFacts>>,
  format: string,
  sha256: string,
  facts: ContentFacts,
): void {
  const byContent = into.get(format) ?? new Map<string, ContentFacts>();
  into.set(format, byContent.set(sha256, facts));
}

/** Reads the facts of a file in `format` (which the caller allows: that rule is not content). */
export function readContentFacts(format: string, path: string, file: FileReader): ContentFacts {
  const problem = fileFormatViolation(path, file, new Set([format]));
  return Object.freeze({ problem, dimensions: file.dimensions() });
}

/** The facts' violation at `path` (the same fields in the same order, so reports compare equal). */
export function problemAt(facts: ContentFacts, path: string): Violation | undefined {
  return (
    facts.problem && (facts.problem.path === path ? facts.problem : { ...facts.problem, path })
  );
}
