// Statements rendered once. Drizzle renders a statement to SQL text at every call: walking its
// tables, columns and fragments costs more than running a short statement (a claim's three:
// 166 µs of the event loop a claim, before this; docs/decisions.md, "A claim's statements
// are rendered once"). A prepared statement (Drizzle's .prepare(), its values
// sql.placeholder()) is rendered once and then only given its values.
//
// A prepared statement runs on the session it was made on: the pool's, or the one of a pooled
// connection, which every transaction on that connection shares (client.ts binds one Drizzle to
// each connection). So each statement is made once per session, on its first use there: in a
// transaction it runs on the transaction's connection and sees what the transaction wrote.
// Drizzle has no statement that is rendered once and runs on any session; this is that.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzleConfig, type Executor } from './client.ts';

/** The statement prepare() makes, made once for each session that uses it. */
export function preparedPerSession<S>(prepare: (db: Executor) => S): (db: Executor) => S {
  const made = new WeakMap<object, S>();
  return (db) => {
    const session = db._.session;
    let statement = made.get(session);
    if (statement === undefined) {
      statement = prepare(db);
      made.set(session, statement);
    }
    return statement;
  };
}

const dialect = new PgDialect(drizzleConfig);

/**
 * A statement written as SQL (what no query builder writes: a WITH of several writes), rendered
 * once, with sql.placeholder() for its values; run answers its rows as node-postgres reads them
 * (timestamps and dates as text, as db.execute does).
 */
export function preparedSql<Row>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  const prepared = preparedPerSession((db) => db._.session.prepareQuery(query, undefined, name, false));
  return async (db: Executor, values: Record<string, unknown>): Promise<Row[]> =>
    ((await prepared(db).execute(values)) as { rows: Row[] }).rows;
}
