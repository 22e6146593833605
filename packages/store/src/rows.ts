// Query shapes that repositories of every domain share.
import type {
  DeleteQueryBuilder,
  DeleteResult,
  Kysely,
  OperandValueExpression,
  ReferenceExpression,
} from 'kysely';
import type { Database } from './database.js';

/** Deletes the row of `table` whose `key` column holds `value`: true when there was one. */
export async function deleteRowByKey<
  T extends keyof Database,
  K extends ReferenceExpression<Database, T>,
>(
  db: Kysely<Database>,
  table: T,
  key: K,
  value: OperandValueExpression<Database, T, K>,
): Promise<boolean> {
  // Typed by hand: with the table a type parameter, Kysely's own `where` overloads do not resolve.
  const from: DeleteQueryBuilder<Database, T, DeleteResult> = db.deleteFrom(table);
  const result = await from.where(key, '=', value).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
