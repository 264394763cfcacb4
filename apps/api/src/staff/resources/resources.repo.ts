// Generic reads and writes of the back-office tabs: each declaration names its Drizzle table
// and columns (schema[tab.table][field.column]), so one set of queries serves every tab.
import { and, asc, desc, getTableColumns, getTableName, ilike, inArray, isNotNull, isNull, or, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import * as schema from '@boardwalk/db/schema';
import type { ResourceDeclaration } from '@boardwalk/contract/staff-tabs';

/** A row as Drizzle reads it: column key (camelCase) to value. */
export type DbRow = Record<string, unknown>;

export interface ResourceTable {
  table: PgTable;
  /** The SQL name, e.g. pass_customizations (how database errors name it). */
  sqlName: string;
  columns: Record<string, AnyPgColumn>;
  id: AnyPgColumn;
  /** The id column's key in a row. */
  idKey: string;
}

/** Resolves a declaration's table and columns; throws at start when one does not exist. */
export function resolveTable(tab: ResourceDeclaration): ResourceTable {
  const table = (schema as unknown as Record<string, unknown>)[tab.table] as PgTable | undefined;
  if (!table) throw new Error(`${tab.title}: no table ${tab.table} in the schema`);
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  for (const name of [tab.idColumn, ...tab.fields.filter((f) => !f.computed).map((f) => f.column)]) {
    if (!columns[name]) throw new Error(`${tab.title}: no column ${name} in table ${tab.table}`);
  }
  return { table, sqlName: getTableName(table), columns, id: columns[tab.idColumn]!, idKey: tab.idColumn };
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

/** The rows a list shows: its filter's scope and its search. */
function listWhere(t: ResourceTable, options: Pick<ListOptions, 'scope' | 'search' | 'searchColumns'>) {
  const search = options.search
    ? or(...options.searchColumns.map((c) => ilike(asText(t.columns[c]!), `%${escapeLike(options.search!)}%`)))
    : undefined;
  return and(options.scope ? inArray(t.columns[options.scope.column]!, options.scope.values) : undefined, search);
}

/**
 * The list's sort keys before the id: text sorts case-insensitively, in code-point order (the
 * same on PGlite and PostgreSQL whatever collation the database was created with).
 */
const sortKeysOf = (column: AnyPgColumn): SQL[] =>
  isText(column) ? [sql`lower(${column}) collate "C"`, sql`${column} collate "C"`] : [sql`${column}`];

/** One page of rows (search, sort, then the id for a stable order) and the number of matching rows. */
export async function listRows(db: Executor, t: ResourceTable, options: ListOptions): Promise<{ rows: DbRow[]; total: number }> {
  const where = listWhere(t, options);
  const order = options.direction === 'desc' ? desc : asc;
  const sortKeys = sortKeysOf(t.columns[options.sortColumn]!).map((key) => order(key));
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

/** Where a page of a list read by key starts: after this row (its sort keys, whether its sort column is null, its id). */
export interface ListKey {
  isNull: boolean;
  keys: unknown[];
  id: unknown;
}

/**
 * Up to `limit` rows of the list after the row whose key is `after` (null: from the first), in
 * the list's order, each with its key: a page costs the same however deep it is (an export).
 * Nulls sort where the list puts them (PostgreSQL's default: last ascending, first
 * descending), as a block of their own ordered by id.
 */
export async function listRowsAfter(
  db: Executor,
  t: ResourceTable,
  options: Omit<ListOptions, 'limit' | 'offset'>,
  after: ListKey | null,
  limit: number,
): Promise<{ row: DbRow; key: ListKey }[]> {
  const column = t.columns[options.sortColumn]!;
  const descending = options.direction === 'desc';
  const order = descending ? desc : asc;
  const keys = sortKeysOf(column);
  const beyond = descending ? sql`<` : sql`>`;
  let past: SQL | undefined;
  if (after) {
    const idBeyond = sql`${t.id} ${beyond} ${after.id}`;
    const tuple = sql`(${sql.join([...keys, sql`${t.id}`], sql`, `)}) ${beyond} (${sql.join(
      [...after.keys, after.id].map((value) => sql`${value}`),
      sql`, `,
    )})`;
    past = after.isNull
      ? descending
        ? or(and(isNull(column), idBeyond), isNotNull(column))
        : and(isNull(column), idBeyond)
      : descending
        ? and(isNotNull(column), tuple)
        : or(isNull(column), and(isNotNull(column), tuple));
  }
  const rows = (await db
    .select({ row: getTableColumns(t.table), ...Object.fromEntries(keys.map((key, i) => [`sortKey${i}`, key])) })
    .from(t.table)
    .where(and(listWhere(t, options), past))
    .orderBy(descending ? sql`${column} is null desc` : sql`${column} is null`, ...keys.map((key) => order(key)), order(t.id))
    .limit(limit)) as ({ row: DbRow } & Record<string, unknown>)[];
  return rows.map((r) => ({
    row: r.row,
    key: { isNull: r.row[options.sortColumn] === null, keys: keys.map((_, i) => r[`sortKey${i}`]), id: r.row[t.idKey] },
  }));
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
