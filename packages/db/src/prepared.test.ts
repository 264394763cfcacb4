// Statements rendered once per session: made on first use on the pool and on each pooled
// connection, then only given values; in a transaction they run on its connection.
import { sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import type { Executor } from './client.ts';
import { preparedPerSession, preparedSql } from './prepared.ts';

const notes = pgTable('prepared_test_notes', { id: integer().primaryKey(), body: text().notNull() });

describe('statements rendered once per session', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(undefined, 2);
    await database.executeSql('create table prepared_test_notes (id int primary key, body text not null)');
  });
  afterAll(() => database.close());

  let made = 0;
  const noteById = preparedPerSession((db: Executor) => {
    made++;
    return db
      .select({ body: notes.body })
      .from(notes)
      .where(sql`${notes.id} = ${sql.placeholder('id')}`)
      .prepare('prepared_test_note_by_id');
  });
  const bodies = preparedSql<{ body: string }>(
    'prepared_test_bodies',
    sql`select body from ${notes} where id = any(${sql.placeholder('ids')}::int[]) order by id`,
  );

  it('runs in a transaction on its connection, seeing what it wrote, and is made once per session', async () => {
    const { db } = database;
    // Made on the pool's session first: the transactions below must not run it there.
    expect(await noteById(db).execute({ id: 0 })).toEqual([]);
    for (let round = 0; round < 3; round++) {
      await db.transaction(async (tx) => {
        await tx.insert(notes).values({ id: round, body: `note ${round}` });
        // Not committed yet: only the transaction's own connection sees the row.
        expect(await noteById(tx).execute({ id: round })).toEqual([{ body: `note ${round}` }]);
        expect(await noteById(tx).execute({ id: round + 1 })).toEqual([]);
        expect(await bodies(tx, { ids: [round] })).toEqual([{ body: `note ${round}` }]);
      });
    }
    expect(await noteById(db).execute({ id: 2 })).toEqual([{ body: 'note 2' }]);
    expect(await bodies(db, { ids: [2, 0, 7] })).toEqual([{ body: 'note 0' }, { body: 'note 2' }]);
    // The pool's session, and one per connection the transactions held (PostgreSQL: 2 at most; PGlite: 1).
    expect(made).toBeGreaterThanOrEqual(2);
    expect(made).toBeLessThanOrEqual(1 + (database.kind === 'postgres' ? 2 : 1));
  });

  it('answers a missing value with an error that names it, changing nothing', async () => {
    await expect(noteById(database.db).execute({})).rejects.toThrow(/id/);
    expect(await bodies(database.db, { ids: [0, 1, 2] })).toHaveLength(3);
  });
});
