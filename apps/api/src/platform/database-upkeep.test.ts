import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityCounts } from '@boardwalk/db/schema';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { createTestApp, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';
import { DATABASE_UPKEEP_QUEUE, vacuumEveryTable } from './database-upkeep.ts';

// The embedded database's upkeep (database-upkeep.ts): VACUUM (ANALYZE) of every table, each
// night on PGlite, which has no autovacuum; not scheduled on PostgreSQL, which has. What it
// gives back is checked on PGlite alone: on PostgreSQL a snapshot of the workers' own jobs may
// still see the deleted rows.
const pglite = testDbKind() === 'pglite';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rows = async (text: string, values: unknown[] = []) => (await t.database.executeSql(text, values)).rows;
const bytesOfActivityCounts = async () => Number((await rows(`select pg_relation_size('activity_counts')::text as bytes`))[0]!.bytes);
/** The database's tables (not the partitioned parents, whose partitions are tables), with reltuples: -1 until vacuumed or analyzed. */
const tablesOfTheDatabase = () =>
  rows(`select n.nspname || '.' || c.relname as name, c.reltuples
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'm') and n.nspname in ('public', 'pgboss', 'drizzle')`);
/** Rows written and deleted, as every completed job's are: their space stays until a vacuum. */
async function churnActivityCounts(rounds: number) {
  for (let round = 0; round < rounds; round++) {
    await t.database.db.execute(sql`insert into ${activityCounts} (day, activity, count)
      select date '2026-01-01' + g, 'lookup-found', g from generate_series(1, 3000) g`);
    await t.database.db.delete(activityCounts);
  }
}

describe('the embedded database is vacuumed and analyzed', () => {
  it.skipIf(!pglite)('gives back the space of deleted rows and analyzes every table of the database (pg-boss too)', async () => {
    await churnActivityCounts(3);
    expect(await bytesOfActivityCounts()).toBeGreaterThan(100_000);

    const run = await vacuumEveryTable(t.database);

    expect(await bytesOfActivityCounts()).toBe(0);
    const tables = await tablesOfTheDatabase();
    expect(tables.length).toBe(run.tables);
    expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['public.tickets', 'pgboss.job_common', run.longest.table]));
    expect(tables.filter((r) => Number(r.reltuples) < 0)).toEqual([]);
  });

  it('goes on past a table dropped after it was listed', async () => {
    await t.database.executeSql('create table upkeep_dropped (id int)');
    let dropped = false;
    const run = await vacuumEveryTable({
      async executeSql(text, values) {
        if (text.startsWith('vacuum') && !dropped) {
          dropped = true;
          await t.database.executeSql('drop table upkeep_dropped');
        }
        return t.database.executeSql(text, values);
      },
    });
    expect(run.tables).toBe((await tablesOfTheDatabase()).length);
  });

  it(`is scheduled each night with an hour to run, on PGlite only (${testDbKind()})`, async () => {
    expect(await rows('select cron from pgboss.schedule where name = $1', [DATABASE_UPKEEP_QUEUE])).toEqual(
      pglite ? [{ cron: '30 10 * * *' }] : [],
    );
    expect(await rows('select expire_seconds from pgboss.queue where name = $1', [DATABASE_UPKEEP_QUEUE])).toEqual(
      pglite ? [{ expire_seconds: 3600 }] : [],
    );
  });

  it.skipIf(!pglite)('runs as a job of the queue, as the schedule makes one', async () => {
    await churnActivityCounts(1);
    const id = await t.app.jobs.send(t.database.db, { name: DATABASE_UPKEEP_QUEUE, data: {} });
    await settleDeliveries(t.app);
    expect(await rows('select state from pgboss.job where id = $1', [id])).toEqual([{ state: 'completed' }]);
    expect(await bytesOfActivityCounts()).toBe(0);
  });
});
