import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityCounts } from '@boardwalk/db/schema';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { createTestApp, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';
import { DATABASE_UPKEEP_QUEUE, vacuumEveryTable } from './database-upkeep.ts';

// The embedded database's upkeep (database-upkeep.ts): VACUUM (ANALYZE) of every table, each
// night on PGlite, which has no autovacuum; not scheduled on PostgreSQL, which has.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rows = async (text: string, values: unknown[] = []) => (await t.database.executeSql(text, values)).rows;
const bytesOfActivityCounts = async () => Number((await rows(`select pg_relation_size('activity_counts')::text as bytes`))[0]!.bytes);

describe('the embedded database is vacuumed and analyzed', () => {
  it('gives back the space of deleted rows and analyzes every table of the database (pg-boss too)', async () => {
    // Rows written and deleted, as every completed job is: their space stays until a vacuum.
    for (let round = 0; round < 3; round++) {
      await t.database.db.execute(sql`insert into ${activityCounts} (day, activity, count)
        select date '2026-01-01' + g, 'lookup-found', g from generate_series(1, 3000) g`);
      await t.database.db.delete(activityCounts);
    }
    const before = await bytesOfActivityCounts();
    expect(before).toBeGreaterThan(100_000);

    const run = await vacuumEveryTable(t.database);

    expect(await bytesOfActivityCounts()).toBe(0);
    // reltuples is -1 for a table never vacuumed nor analyzed since it was made.
    const tables = await rows(`
      select n.nspname || '.' || c.relname as name, c.reltuples
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname in ('public', 'pgboss', 'drizzle')`);
    expect(tables.length).toBe(run.tables);
    expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['public.tickets', 'pgboss.job_common']));
    expect(tables.filter((r) => Number(r.reltuples) < 0)).toEqual([]);
    expect(run.bytesAfter).toBeLessThan(run.bytesBefore);
  });

  it(`is scheduled each night on PGlite only (${testDbKind()})`, async () => {
    const schedules = await rows('select cron from pgboss.schedule where name = $1', [DATABASE_UPKEEP_QUEUE]);
    expect(schedules).toEqual(testDbKind() === 'pglite' ? [{ cron: '30 10 * * *' }] : []);
  });

  it.skipIf(testDbKind() !== 'pglite')('runs as a job of the queue, as the schedule makes one', async () => {
    await t.database.db.execute(sql`insert into ${activityCounts} (day, activity, count) values ('2026-01-01', 'lookup-found', 1)`);
    await t.database.db.delete(activityCounts);
    await t.app.jobs.send(t.database.db, { name: DATABASE_UPKEEP_QUEUE, data: {} });
    await settleDeliveries(t.app);
    expect(await rows('select state from pgboss.job where name = $1', [DATABASE_UPKEEP_QUEUE])).toEqual([{ state: 'completed' }]);
    expect(await bytesOfActivityCounts()).toBe(0);
  });
});
