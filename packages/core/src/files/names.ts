import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';

export const maxPathBytes = 200;
const utf8 = new TextEncoder();

/**
 * Segments of lower-case letters, digits, `.`, `_` and `-` that do not start with a dot: such a
 * path (ASCII, so NFC and one byte a character) has none of the problems below but its length.
 */
const plainPath = /^[a-z0-9_-][a-z0-9._-]*(?:\/[a-z0-9_-][a-z0-9._-]*)*$/;
const isPlain = (path: string) => path.length <= maxPathBytes && plainPath.test(path);

/** The naming problem of one path (decisions §4), most basic first; undefined when fine. */
function pathProblem(path: string): Violation | undefined {
  if (isPlain(path)) return undefined;
  const at = { path };
  if (path.startsWith('/')) return violation('names.absolute', at);
  if (/^[a-zA-Z]:/.test(path)) return violation('names.drive_letter', at);
  if (path.includes('\\')) return violation('names.backslash', at);
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return violation('names.control_character', at);
  const segments = path.split('/');
  if (segments.includes('..')) return violation('names.traversal', at);
  if (segments.some((s) => s === '.' || s === '')) return violation('names.not_canonical', at);
  if (path.normalize('NFC') !== path) return violation('names.not_nfc', at);
  if (segments.some((s) => s.startsWith('.'))) return violation('names.hidden', at);
  const bad = [...new Set(path.replace(/[a-z0-9._/-]/g, ''))].sort();
  if (bad.length > 0) return violation('names.characters', { path, actual: bad.join('') });
  const bytes = utf8.encode(path).length;
  if (bytes > maxPathBytes)
    return violation('names.too_long', { path, expected: maxPathBytes, actual: bytes });
  return undefined;
}

/** The first folder a path lies in (`a/b/c`: `a`, then `a/b`) that is in `files`. */
function folderIn(path: string, files: ReadonlySet<string>): string | undefined {
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
    const folder = path.slice(0, slash);
    if (files.has(folder)) return folder;
  }
  return undefined;
}

/**
 * The `names` rules over a set of paths: each path's own problem, then `names.duplicate` for a
 * path that collides with an earlier one once case and Unicode normalization are folded, or
 * that another path uses as a folder (no file system could hold both).
 */
export function nameViolations(paths: readonly string[]): Violation[] {
  const sorted = [...paths].sort();
  const files = new Set(sorted);
  const firstByFolded = new Map<string, string>();
  const found: Violation[] = [];
  for (const path of sorted) {
    const problem = pathProblem(path);
    if (problem) found.push(problem);
    // A plain path is already folded (ASCII, lower case).
    const folded = isPlain(path) ? path : path.normalize('NFC').toLowerCase();
    const first = firstByFolded.get(folded);
    if (first === undefined) firstByFolded.set(folded, path);
    else found.push(violation('names.duplicate', { path, actual: first }));
    const folder = folderIn(path, files);
    if (folder !== undefined)
      found.push(violation('names.duplicate', { path: folder, actual: path }));
  }
  return found;
}
