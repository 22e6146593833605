import { newId } from '../ids.js';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { ConfirmationsTable } from './tables.js';

export interface ConfirmationRecord {
  id: string;
  projectId: string;
  version: number;
  revision: number;
  /** SHA-256 of the stored ZIP: its name in the byte store. */
  sha256: string;
  size: number;
  contentDigest: string;
  note: string | null;
  byName: string;
  confirmedAt: string;
}

function toConfirmation(row: ConfirmationsTable): ConfirmationRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    version: row.version,
    revision: row.revision,
    sha256: row.sha256,
    size: row.size,
    contentDigest: row.content_digest,
    note: row.note,
    byName: row.by_name,
    confirmedAt: row.confirmed_at,
  };
}

/** Versions confirmed by a person, numbered 1, 2, … per project, with their exact ZIP bytes. */
export class ConfirmationsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Records the next version. The ZIP is already in the byte store. Call inside a transaction
   * holding the project row, so two confirmations cannot take the same number.
   */
  async create(input: {
    projectId: string;
    revision: number;
    sha256: string;
    size: number;
    contentDigest: string;
    note: string | null;
    accountNumber: number;
    byName: string;
  }): Promise<ConfirmationRecord> {
    const { max } = await this.#scope.db
      .selectFrom('confirmations')
      .select((eb) => eb.fn.max('version').as('max'))
      .where('project_id', '=', input.projectId)
      .executeTakeFirstOrThrow();
    const row: ConfirmationsTable = {
      id: newId('cnf'),
      project_id: input.projectId,
      version: Number(max ?? 0) + 1,
      revision: input.revision,
      sha256: input.sha256,
      size: input.size,
      content_digest: input.contentDigest,
      note: input.note,
      account_number: input.accountNumber,
      by_name: input.byName,
      confirmed_at: isoTime(this.#scope.clock.now()),
    };
    await this.#scope.db.insertInto('confirmations').values(row).execute();
    return toConfirmation(row);
  }

  async latest(projectId: string): Promise<ConfirmationRecord | null> {
    const [latest] = await this.list(projectId, { limit: 1 });
    return latest ?? null;
  }

  async byVersion(projectId: string, version: number): Promise<ConfirmationRecord | null> {
    const row = await this.#scope.db
      .selectFrom('confirmations')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row ? toConfirmation(row) : null;
  }

  async byId(projectId: string, id: string): Promise<ConfirmationRecord | null> {
    const row = await this.#scope.db
      .selectFrom('confirmations')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toConfirmation(row) : null;
  }

  /** Newest first: `limit` versions below `before`. */
  async list(
    projectId: string,
    options: { limit: number; before?: number },
  ): Promise<ConfirmationRecord[]> {
    let query = this.#scope.db
      .selectFrom('confirmations')
      .selectAll()
      .where('project_id', '=', projectId);
    if (options.before !== undefined) query = query.where('version', '<', options.before);
    const rows = await query.orderBy('version', 'desc').limit(options.limit).execute();
    return rows.map(toConfirmation);
  }
}
