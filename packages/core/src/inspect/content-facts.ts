import type { Violation } from '../report/violation.js';
import { fileFormatViolation, type FileReader } from '../files/file-format.js';
import type { DimensionResult } from '../files/dimensions.js';

/**
 * What an inspection reads from one file's content in one format: the `formats` rule its bytes
 * break (content not what the extension says, not UTF-8, invalid JSON, active SVG, an image
 * unreadable or beyond the bounds), and its pixel size. A pure function of the format and the
 * bytes, so it is known again by `contentKey` for any path with the same extension and content.
 */
export interface ContentFacts {
  /** The violation as found at the path first inspected; another path takes its own. */
  readonly problem: Violation | undefined;
  readonly dimensions: DimensionResult | undefined;
}

/** The key of a content's facts: its format and SHA-256 (hex). */
export const contentKey = (format: string, sha256: string) => `${format}:${sha256}`;

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
