// SQL fragments the repositories share.
import { getTableColumns, sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A list of uuids as one bound parameter (`uuid[]`), for `column = any(...)`: PostgreSQL counts
 * the array's elements (it guesses 100 rows for a set-returning function such as
 * jsonb_to_recordset) and probes the column's index with them. What is not a uuid is left out
 * (it matches no row anyway), and so are repeats: one malformed value in a batch must not fail
 * the whole statement.
 */
export function uuidArray(ids: readonly (string | null | undefined)[]): SQL {
  const valid = [...new Set(ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)))];
  return sql`${`{${valid.join(',')}}`}::uuid[]`;
}

/**
 * Some of a table's columns under their own names, for a select list:
 * `pickColumns(tickets, 'barcode', 'orderId')` is `{ barcode: tickets.barcode, orderId: tickets.orderId }`.
 */
export function pickColumns<T extends Table, K extends keyof T['_']['columns'] & string>(
  table: T,
  ...keys: K[]
): Pick<T['_']['columns'], K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(keys.map((key) => [key, columns[key]])) as Pick<T['_']['columns'], K>;
}

/** The time a write is stamped with: `at`, a past time (the demo's history), or the transaction's now(). */
export const nowOr = (at?: Date | null): SQL => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);

/** A new row's timestamps: `at`, a past time (the demo's history), or none (the columns' default, now()). */
export const stampedAt = (at?: Date | null) => (at ? { createdAt: at, updatedAt: at } : {});

/**
 * A timestamp as an update tag: microseconds since the epoch (the column's own precision, so a
 * tag never hides a later change), as text. Apple devices send a pass's back as
 * passesUpdatedSince, and a park-wide wave's is compared with it.
 */
export const microsecondTag = (timestamp: SQL | AnyColumn): SQL<string> =>
  sql<string>`floor(extract(epoch from ${timestamp}) * 1000000)::bigint::text`;
