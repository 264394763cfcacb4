// Generic reads and writes of the back-office tabs: each declaration names its Drizzle table
// and columns (schema[tab.table][field.column]), so one set of queries serves every tab.
import { and, asc, desc, getTableColumns, getTableName, ilike, inArray, or, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import * as schema from '@boardwalk/db/schema';
import type { ResourceDeclaration } from '@boardwalk/contract/staff-resources';

/** A row as Drizzle reads it: column key (camelCase) to value. */
export type DbRow = Record<string, unknown>;

export interface ResourceTable {
  table: PgTable;
  /** The SQL name, e.g. pass_customizations (how database errors name it). */
  sqlName: string;
  columns: Record<string, AnyPgColumn>;
  id: AnyPgColumn;
}

/** Resolves a declaration's table and columns; throws at start when one does not exist. */
export function resolveTable(tab: ResourceDeclaration): ResourceTable {
  const table = (schema as unknown as Record<string, unknown>)[tab.table] as PgTable | undefined;
  if (!table) throw new Error(`${tab.title}: no table ${tab.table} in the schema`);
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  for (const name of [tab.idColumn, ...tab.fields.map((f) => f.column)]) {
    if (!columns[name]) throw new Error(`${tab.title}: no column ${name} in table ${tab.table}`);
  }
  return { table, sqlName: getTableName(table), columns, id: columns[tab.idColumn]! };
}

/** The value kind of a column as Drizzle maps it: string, number, boolean, date, json... */
export const columnKind = (t: ResourceTable, column: string) => t.columns[column]!.dataType;

/** LIKE's wildcards and its escape character taken literally (ILIKE's default escape is \). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A text column (not a uuid, which Drizzle also reads as a string): ILIKE and lower() take it as is. */
const isText = (column: AnyPgColumn) => column.getSQLType() === 'text';
const asText = (column: AnyPgColumn): SQL | AnyPgColumn => (isText(column) ? column : sql`${column}::text`);

export interface ListOptions {
  /** Only rows whose column holds one of the values. */
  scope?: { column: string; values: string[] } | undefined;
  search?: string | undefined;
  searchColumns: string[];
  sortColumn: string;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** One page of rows (search, sort, then the id for a stable order) and the number of matching rows. */
export async function listRows(db: Executor, t: ResourceTable, options: ListOptions): Promise<{ rows: DbRow[]; total: number }> {
  const search = options.search
    ? or(...options.searchColumns.map((c) => ilike(asText(t.columns[c]!), `%${escapeLike(options.search!)}%`)))
    : undefined;
  const where = and(options.scope ? inArray(t.columns[options.scope.column]!, options.scope.values) : undefined, search);
  const column = t.columns[options.sortColumn]!;
  const order = options.direction === 'desc' ? desc : asc;
  // Text sorts case-insensitively, in code-point order: the same on PGlite and PostgreSQL
  // whatever collation the database was created with.
  const sortKeys = isText(column) ? [order(sql`lower(${column}) collate "C"`), order(sql`${column} collate "C"`)] : [order(column)];
  // The page and the count side by side (two pooled connections on PostgreSQL): a window
  // count(*) over () would make the database carry every matching row to the sort.
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(t.table)
      .where(where)
      .orderBy(...sortKeys, order(t.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(t.table)
      .where(where),
  ]);
  return { rows: rows as DbRow[], total: counted[0]?.n ?? 0 };
}

/** The row with this id, locked for the rest of the transaction when `lock` is set. */
export async function findRow(db: Executor, t: ResourceTable, id: string, lock = false): Promise<DbRow | null> {
  const query = db.select().from(t.table).where(eq(t.id, id)).limit(1);
  const rows = lock ? await query.for('update') : await query;
  return (rows[0] as DbRow | undefined) ?? null;
}

export async function insertRow(db: Executor, t: ResourceTable, values: DbRow): Promise<DbRow> {
  const rows = await db
    .insert(t.table)
    .values(values as never)
    .returning();
  return rows[0] as DbRow;
}

export async function updateRow(db: Executor, t: ResourceTable, id: string, values: DbRow): Promise<DbRow | null> {
  const set = 'updatedAt' in t.columns ? { ...values, updatedAt: new Date() } : values;
  const rows = (await db
    .update(t.table)
    .set(set as never)
    .where(eq(t.id, id))
    .returning()) as DbRow[];
  return rows[0] ?? null;
}

export async function deleteRow(db: Executor, t: ResourceTable, id: string): Promise<DbRow | null> {
  const rows = (await db.delete(t.table).where(eq(t.id, id)).returning()) as DbRow[];
  return rows[0] ?? null;
}

/** Runs fn in one transaction (the write and its audit entry commit together or not at all). */
export function inTransaction<T>(db: Executor, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Executor));
}

/** Option list of GET /api/admin/pass-customizations/: every customization name, in order. */
export async function listCustomizationNames(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ name: schema.passCustomizations.name })
    .from(schema.passCustomizations)
    .orderBy(sql`lower(${schema.passCustomizations.name}) collate "C"`, schema.passCustomizations.name);
  return rows.map((r) => r.name);
}

/** Option list of GET /api/admin/loyalty-tier-options/: every tier name, lowest threshold first. */
export async function listTierNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: schema.loyaltyTiers.name }).from(schema.loyaltyTiers).orderBy(schema.loyaltyTiers.pointsToReach);
  return rows.map((r) => r.name);
}

/** Option list of GET /api/team-member/: every team member, by last then first name. */
export async function listTeamMemberChoices(db: Executor) {
  const m = schema.teamMembers;
  return db
    .select({ guid: m.guid, firstName: m.firstName, lastName: m.lastName, accessLevel: m.accessLevel })
    .from(m)
    .orderBy(sql`lower(${m.lastName}) collate "C"`, sql`lower(${m.firstName}) collate "C"`, m.guid);
}

export interface ConstraintViolation {
  kind: 'unique' | 'foreignKey';
  /** The table the database names: the written one, or for a delete the one still referring to it. */
  table: string | undefined;
  /** The column of the key, as the database names it (snake_case), when it says. */
  column: string | undefined;
}

/** A unique or foreign-key violation behind a Drizzle error (node-postgres or PGlite), else null. */
export function constraintViolation(error: unknown): ConstraintViolation | null {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause && typeof cause === 'object'; depth++) {
    const e = cause as { code?: unknown; table?: unknown; detail?: unknown; cause?: unknown };
    // 23001: ON DELETE RESTRICT as newer PostgreSQL versions (and PGlite) report it.
    if (e.code === '23505' || e.code === '23503' || e.code === '23001') {
      const column = typeof e.detail === 'string' ? /^Key \((?:lower\()?"?(\w+)"?\)?\)=/.exec(e.detail)?.[1] : undefined;
      return { kind: e.code === '23505' ? 'unique' : 'foreignKey', table: typeof e.table === 'string' ? e.table : undefined, column };
    }
    cause = e.cause;
  }
  return null;
}
