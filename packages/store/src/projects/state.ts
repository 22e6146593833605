import { sha256Hex } from '../ids.js';

/** A page of a project as project.json lists it (title falls back to the page's <title>). */
export interface PageEntry {
  file: string;
  title: string;
  public_url: string;
}

/** A file of a folder: its bytes are in the byte store under `sha256`. */
export interface FileEntry {
  sha256: string;
  size: number;
}

export interface MediaRef {
  id: string;
  version: number;
}

/** A whole folder as a change proposes it: read from project.json, bytes already stored. */
export interface FolderState {
  title: string;
  media: MediaRef;
  pages: PageEntry[];
  files: ReadonlyMap<string, FileEntry>;
}

/** A file of a saved revision, with the revision that last changed it. */
export interface ManifestEntry extends FileEntry {
  revision: number;
}

/** A saved revision's state. Revisions never change, so this can be cached by number. */
export interface RevisionState {
  projectId: string;
  revision: number;
  title: string;
  media: MediaRef;
  pages: PageEntry[];
  manifest: ReadonlyMap<string, ManifestEntry>;
  /** Equal paths and contents, equal digest: what "differs in content" compares. */
  contentDigest: string;
}

type EncodedEntry = [sha256: string, size: number, revision: number];

export function encodeManifest(manifest: ReadonlyMap<string, ManifestEntry>): string {
  const sorted = [...manifest.keys()].sort();
  // fromEntries defines own properties, so even a path named `__proto__` is kept.
  const out = Object.fromEntries(
    sorted.map((path): [string, EncodedEntry] => {
      const e = manifest.get(path)!;
      return [path, [e.sha256, e.size, e.revision]];
    }),
  );
  return JSON.stringify(out);
}

export function decodeManifest(text: string): Map<string, ManifestEntry> {
  const raw = JSON.parse(text) as Record<string, EncodedEntry>;
  return new Map(
    Object.entries(raw).map(([path, [sha256, size, revision]]) => [
      path,
      { sha256, size, revision },
    ]),
  );
}

export function contentDigestOf(files: ReadonlyMap<string, FileEntry>): string {
  const lines = [...files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, e]) => `${path}\u0000${e.sha256}\n`);
  return sha256Hex(lines.join(''));
}

/**
 * The manifest of a new revision: a file keeps the revision that last changed it when its
 * content is the same as in the previous revision, else it is changed by `revision`.
 */
export function nextManifest(
  files: ReadonlyMap<string, FileEntry>,
  previous: ReadonlyMap<string, ManifestEntry> | null,
  revision: number,
): Map<string, ManifestEntry> {
  const out = new Map<string, ManifestEntry>();
  for (const [path, file] of files) {
    const before = previous?.get(path);
    out.set(path, {
      sha256: file.sha256,
      size: file.size,
      revision: before && before.sha256 === file.sha256 ? before.revision : revision,
    });
  }
  return out;
}
