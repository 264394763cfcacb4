// The PostgreSQL client's statement cache: a statement the code repeats is prepared once per
// connection (named), a one-off is not, inside transactions too, with the same answers. Each
// pool keeps its own cache: what other test files in this worker ran never fills this one's.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-support/test-database.ts';
import { STATEMENT_CACHE_TEXTS } from './client.ts';
import { loyaltyAccounts } from './schema.ts';

describe.skipIf(testDbKind() !== 'postgres')('statement cache (PostgreSQL)', () => {
  let database: TestDatabase;
  // One connection, so every statement below meets the same session's prepared statements.
  beforeAll(async () => {
    database = await createTestDatabase('postgres', 1);
  });
  afterAll(() => database.close());

  const prepared = async (like: string) => {
    const { rows } = (await database.db.execute(
      sql`select statement, generic_plans + custom_plans as runs from pg_prepared_statements where statement like ${like}`,
    )) as unknown as { rows: { statement: string; runs: string }[] };
    return rows;
  };

  it('prepares a statement with parameters from its second run, once, and answers the same', async () => {
    const byEmail = (email: string) =>
      database.db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(eq(loyaltyAccounts.email, email));
    expect(await byEmail('first@example.com')).toEqual([]);
    expect(await prepared('%"loyalty_accounts"."email" = $1%')).toEqual([]);
    for (const n of [2, 3, 4]) expect(await byEmail(`guest${n}@example.com`)).toEqual([]);
    const rows = await prepared('%"loyalty_accounts"."email" = $1%');
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.runs)).toBe(3);
  });

  it('prepares statements inside a transaction and the SQL text a library runs with values', async () => {
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.execute(sql`select ${i}::int + 40 as in_transaction`);
    });
    expect(await prepared('%in_transaction%')).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      const { rows } = await database.executeSql('select $1::int + 1 as from_library', [i]);
      expect(rows).toEqual([{ from_library: i + 1 }]);
    }
    expect(await prepared('%from_library%')).toHaveLength(1);
  });

  it('still names a repeated statement after more one-off texts than it remembers', async () => {
    for (let i = 0; i <= STATEMENT_CACHE_TEXTS; i++) await database.executeSql(`select $1::int as one_off_${i}`, [i]);
    expect(await prepared('%one_off_%')).toEqual([]);
    for (let i = 0; i < 3; i++) await database.executeSql('select $1::int as after_one_offs', [i]);
    expect(await prepared('%after_one_offs%')).toHaveLength(1);
  });

  it("keeps a cache per pool: another pool's full cache leaves this one naming", async () => {
    const other = await createTestDatabase('postgres', 1);
    try {
      for (let i = 0; i < STATEMENT_CACHE_TEXTS; i++) {
        for (const run of [1, 2]) await other.executeSql(`select $1::int as repeated_${i}`, [run]);
      }
    } finally {
      await other.close();
    }
    for (let i = 0; i < 3; i++) await database.executeSql('select $1::int as beside_a_full_pool', [i]);
    expect(await prepared('%beside_a_full_pool%')).toHaveLength(1);
  });

  it('never prepares a statement without parameters', async () => {
    for (let i = 0; i < 3; i++) await database.db.execute(sql.raw('select 7 as without_parameters'));
    expect(await prepared('%without_parameters%')).toEqual([]);
  });
});

describe.skipIf(testDbKind() !== 'pglite')("PGlite's one session", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(() => database.close());

  it('lets the event loop run between the transactions waiting for it (timers fire, sockets are read)', async () => {
    // 100 transactions asked for at once, as a batch of jobs does: each passes the session on.
    const turns: number[] = [];
    let running = true;
    const tick = () => {
      turns.push(Date.now());
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 100 }, () => database.db.transaction((tx) => tx.execute(sql`select count(*) from generate_series(1, 20000)`))),
    );
    running = false;
    const took = Date.now() - started;
    // A timer set for now fired many times while they ran, not once they were all done.
    expect(turns.filter((at) => at < started + took).length).toBeGreaterThan(20);
  });
});
