import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from './exit.js';
import { writeFileAtomically } from './files.js';

/** The record `galley watch` keeps in its folder, so a restart imports nothing twice. */
const recordName = '.galley-imported.json';

/** A confirmed version whose ZIP was downloaded, verified and written to `file`. */
export interface ImportedVersion {
  project: string;
  version: number;
  sha256: string;
  file: string;
  imported_at: string;
}
/** A confirmed version left out because its `sha256` had been imported already (the spec's rule). */
export interface SkippedVersion {
  project: string;
  version: number;
  sha256: string;
}
interface RecordFile {
  format: 1;
  imported: ImportedVersion[];
  skipped: SkippedVersion[];
}

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
    let data: Partial<RecordFile>;
    try {
      data = JSON.parse(text) as Partial<RecordFile>;
    } catch {
      throw new InputError(
        'unreadable',
        `${path} is not JSON; repair it, or remove it to import anew`,
      );
    }
    if (data.format !== 1 || !Array.isArray(data.imported) || !Array.isArray(data.skipped))
      throw new InputError('unreadable', `${path} is not a record of galley watch (format 1)`);
    return new ImportedRecord(path, data as RecordFile);
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
