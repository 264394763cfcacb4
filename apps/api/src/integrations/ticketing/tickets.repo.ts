// The feed's tickets as other features' statements name them, by a barcode column of their own
// table: whether the ticket ended before a time, when it expires, and its row locked. The
// tickets themselves are written by the feed alone (orders.repo.ts). In the select list of a
// one-table query Drizzle writes a column without its table, which the subquery would read as
// the ticket's own: there the caller names its column with its table (qualified()).
import { eq, getTableName, lt, or, sql, type SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import { tickets } from '@boardwalk/db/schema';

/** The ticket of this barcode expired or was used (redeemed at the gate) before the cutoff. */
export const ticketEndedBeforeSql = (barcode: AnyPgColumn | SQL, cutoff: Date): SQL =>
  sql`exists (select 1 from ${tickets} where ${tickets.barcode} = ${barcode}
        and (${or(lt(tickets.expires, cutoff), lt(tickets.redeemed, cutoff))}))`;

/** The expiry of the ticket of this barcode: null when it has none, or the feed dropped the ticket. */
export const ticketExpiresSql = (barcode: AnyPgColumn | SQL) =>
  sql<Date | null>`(select ${tickets.expires} from ${tickets} where ${tickets.barcode} = ${barcode})`.mapWith(tickets.expires);

/** Locks the ticket's row FOR UPDATE until the transaction ends (nothing when there is none). */
export async function lockTicketRow(tx: Executor, barcode: string): Promise<void> {
  await tx.select({ barcode: tickets.barcode }).from(tickets).where(eq(tickets.barcode, barcode)).for('update');
}

/**
 * A column named with its table ("wristband_bindings"."barcode"), whatever the query around it
 * (the database's snake_case name, unless the column names itself).
 */
export const qualified = (column: AnyPgColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.keyAsName ? toSnakeCase(column.name) : column.name)}`;
