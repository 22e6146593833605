import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { v1 } from '@galley/core';
import { InputError } from './exit.js';
import { writeFileAtomically } from './files.js';
import { projectIdPattern } from './remote.js';

/** The record `galley watch` keeps in its folder, so a restart imports nothing twice. */
const recordName = '.galley-imported.json';

/** A confirmed version left out because its `sha256` had been imported already (the spec's rule). */
const SkippedVersion = z.object({
  project: z.string().regex(projectIdPattern),
  version: z.number().int().min(1),
  sha256: v1.Confirmation.shape.sha256,
});
export type SkippedVersion = z.infer<typeof SkippedVersion>;

/** A confirmed version whose ZIP was downloaded, verified and written to `file`. */
const ImportedVersion = SkippedVersion.extend({
  file: z.string().min(1),
  imported_at: z.iso.datetime(),
});
export type ImportedVersion = z.infer<typeof ImportedVersion>;

/** The whole record, to the last field: a poll reads every entry of it (`handledThrough`). */
const RecordFile = z.object({
  format: z.literal(1),
  imported: z.array(ImportedVersion),
  skipped: z.array(SkippedVersion),
});
type RecordFile = z.infer<typeof RecordFile>;

export class ImportedRecord {
  private constructor(
    private readonly path: string,
    private readonly data: RecordFile,
  ) {}

  /** Reads `<folder>/.galley-imported.json`, or starts an empty record when there is none. */
  static async open(folder: string): Promise<ImportedRecord> {
    const path = join(folder, recordName);
    const text = await readFile(path, 'utf8').catch((error: { code?: unknown }) => {
      if (error.code === 'ENOENT') return undefined;
      throw new InputError('unreadable', `${path} cannot be read`);
    });
    if (text === undefined)
      return new ImportedRecord(path, { format: 1, imported: [], skipped: [] });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InputError(
        'unreadable',
        `${path} is not JSON; repair it, or remove it to import anew`,
      );
    }
    const record = RecordFile.safeParse(json);
    if (!record.success)
      throw new InputError(
        'unreadable',
        `${path} is not a record of galley watch (format 1); repair it, or remove it to import anew`,
      );
    return new ImportedRecord(path, record.data);
  }

  /** The file already holding these bytes, if they were imported (for any project). */
  fileWith(sha256: string): string | undefined {
    return this.data.imported.find((v) => v.sha256 === sha256)?.file;
  }

  /**
   * The newest version of `project` handled so far. Versions are handled oldest first and a
   * failure stops the run before any newer one, so every version up to this one is handled.
   */
  handledThrough(project: string): number {
    let through = 0;
    for (const v of [...this.data.imported, ...this.data.skipped])
      if (v.project === project && v.version > through) through = v.version;
    return through;
  }

  async addImported(version: ImportedVersion): Promise<void> {
    this.data.imported.push(version);
    await this.save();
  }

  async addSkipped(version: SkippedVersion): Promise<void> {
    this.data.skipped.push(version);
    await this.save();
  }

  private save(): Promise<void> {
    return writeFileAtomically(
      this.path,
      new TextEncoder().encode(`${JSON.stringify(this.data, null, 2)}\n`),
    );
  }
}
