import {
  blocksSave,
  checkFolder,
  checkZip,
  convertSite,
  isPlainSiteZip,
  isZip,
  readZip,
} from '@galley/core';
import { applyEdits, modify } from 'jsonc-parser';
import type { CheckReport, ConvertSiteOptions, Folder, v1 } from '@galley/core';
import type { z } from 'zod';
import type { FileEntry, FolderState, PageEntry } from '@galley/store';
import { sha256Hex } from '@galley/store';

type SiteReport = z.infer<typeof v1.SiteReport>;

/**
 * A folder with the SHA-256 of every file by path, computed where the folder was read (in the
 * pool for a large upload): hashing 50 MB at once held the event loop for about 70 ms.
 */
export interface HashedFolder {
  folder: Folder;
  digests: ReadonlyMap<string, string>;
}

/** An uploaded ZIP, judged: a project folder (with `site` when converted) or the 422 report. */
export type Intake =
  (HashedFolder & { ok: true; site?: SiteReport }) | { ok: false; report: CheckReport };

export function hashFolder(folder: Folder): HashedFolder {
  const digests = new Map<string, string>();
  for (const [path, bytes] of folder) digests.set(path, sha256Hex(bytes));
  return { folder, digests };
}

/** The uploader's choices for a plain site (fields `index`, `drop_external`, `drop_missing`). */
export type SiteOptions = Pick<ConvertSiteOptions, 'index' | 'dropExternal' | 'dropMissing'>;

/**
 * Rule 1 and 2 of the Projects endpoints: a ZIP with `index.html` (or the entry page `site`
 * names) and no `project.json` is a plain site, converted (its limits, the entry count included,
 * are `site.limit`); anything else must be a project folder passing every check. Bytes that are
 * not a ZIP fail the `archive` check.
 */
export function intakeZip(bytes: Uint8Array, site: SiteOptions = {}): Intake {
  if (!isZip(bytes)) return { ok: false, report: checkZip(bytes) };
  const read = readZip(bytes);
  if (isPlainSiteZip(bytes, read, site)) {
    const converted = convertSite(read.folder, { ...site, preViolations: read.violations });
    if (!converted.ok) return { ok: false, report: converted.report };
    // The conversion promises a folder that passes: checked again, never trusted blindly.
    const report = checkFolder(converted.folder);
    return blocksSave(report)
      ? { ok: false, report }
      : { ok: true, ...hashFolder(converted.folder), site: converted.site };
  }
  const report = checkZip(bytes);
  return blocksSave(report) ? { ok: false, report } : { ok: true, ...hashFolder(read.folder) };
}

interface ProjectJson {
  title: string;
  media: { id: string; version: number };
  pages: PageEntry[];
}

/**
 * What a checked folder says about itself: title, medium and pages from project.json; a page
 * whose entry has no title takes its `<title>` (decisions §8).
 */
export function folderStateOf(folder: Folder, files: ReadonlyMap<string, FileEntry>): FolderState {
  const project = JSON.parse(text(folder.get('project.json'))) as ProjectJson;
  const pages = project.pages.map((page) => ({
    file: page.file,
    title: page.title.trim() || titleOf(text(folder.get(page.file))),
    public_url: page.public_url,
  }));
  return {
    title: project.title,
    media: { id: project.media.id, version: project.media.version },
    pages,
    files,
  };
}

/**
 * project.json with a new title, every other byte kept where it can be: only the title's value
 * is rewritten, so renaming back to a confirmed title gives the confirmed folder again (the same
 * `sha256`, nothing unconfirmed). A text the edit cannot address (a repeated "title" member, of
 * which JSON.parse reads the last) is written anew instead.
 */
export function renamedProjectJson(bytes: Uint8Array, title: string): Uint8Array {
  const before = text(bytes);
  const edited = applyEdits(before, modify(before, ['title'], title, {}));
  if ((JSON.parse(edited) as { title?: unknown }).title === title) {
    return new TextEncoder().encode(edited);
  }
  const value = JSON.parse(before) as Record<string, unknown>;
  return new TextEncoder().encode(`${JSON.stringify({ ...value, title }, null, 2)}\n`);
}

function text(bytes: Uint8Array | undefined): string {
  return new TextDecoder().decode(bytes ?? new Uint8Array());
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The text of the first <title>, white space collapsed, common character references decoded. */
export function titleOf(html: string): string {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!match) return '';
  return match[1]!
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
