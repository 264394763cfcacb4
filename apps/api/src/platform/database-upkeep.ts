// The embedded database's upkeep. PGlite runs PostgreSQL as one session in this process, with
// no autovacuum worker: a row updated or deleted leaves its old version in the table for good,
// and no table is ever analyzed. The job queue alone leaves one or more per job (a
// republish of 50,000 passes, 50,000 pushes), so an embedded database that runs for months grows
// with everything it ever held and is planned without statistics. This job does what
// autovacuum does on PostgreSQL: every night, VACUUM (ANALYZE) of each table, one statement per
// table so that requests go on between them (the one session serves one statement at a time).
// On PostgreSQL it is not declared: autovacuum does this there.
import fp from 'fastify-plugin';
import type { Database } from '@boardwalk/db/client';

export const DATABASE_UPKEEP_QUEUE = 'database-upkeep';

/**
 * What one run did: the tables vacuumed and analyzed, the database's size before and after
 * (bytes), how long it took, and its longest statement (what a request waited at most).
 */
export interface UpkeepRun {
  tables: number;
  bytesBefore: number;
  bytesAfter: number;
  seconds: number;
  longest: { table: string; seconds: number };
}

type Sql = Pick<Database, 'executeSql'>;
const UNDEFINED_TABLE = '42P01';

const databaseBytes = async (db: Sql) => {
  const { rows } = await db.executeSql('select pg_database_size(current_database())::text as bytes');
  return Number(rows[0]!.bytes);
};

/** VACUUM (ANALYZE) of every table of the database's own schemas (not PostgreSQL's catalogs), one statement each. */
export async function vacuumEveryTable(db: Sql): Promise<UpkeepRun> {
  const started = performance.now();
  const bytesBefore = await databaseBytes(db);
  // Each name quoted by PostgreSQL itself (format's %I), ready to stand in a statement.
  const { rows } = await db.executeSql(`
    select format('%I.%I', n.nspname, c.relname) as "table"
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'm') and n.nspname <> 'information_schema' and n.nspname !~ '^pg_' -- the catalogs, TOAST, temporary
    order by n.nspname, c.relname`);
  let vacuumed = 0;
  let longest = { table: '', seconds: 0 };
  for (const table of rows.map((row) => String(row.table))) {
    const from = performance.now();
    try {
      await db.executeSql(`vacuum (analyze) ${table}`);
    } catch (error) {
      // Dropped since it was listed (pg-boss drops a removed queue's partition): nothing to do.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) continue;
      throw error;
    }
    vacuumed++;
    const seconds = (performance.now() - from) / 1000;
    if (seconds > longest.seconds) longest = { table, seconds };
  }
  const bytesAfter = await databaseBytes(db);
  return { tables: vacuumed, bytesBefore, bytesAfter, seconds: (performance.now() - started) / 1000, longest };
}

export const databaseUpkeepJobs = fp(
  async (app) => {
    if (app.database.kind !== 'pglite') return;
    const log = app.log.child({ module: 'database-upkeep' });
    await app.jobs.declare<object>({
      name: DATABASE_UPKEEP_QUEUE,
      policy: 'stately',
      batchSize: 1,
      // 10:30 UTC: after the retention job (10:00), whose deletions it then gives back.
      cron: '30 10 * * *',
      // A first run on a database that went months without one reads all of it: not the
      // deliveries' 30 s (after which pg-boss fails the job and runs it again).
      expireSeconds: 60 * 60,
      handler: async () => log.info(await vacuumEveryTable(app.database), 'database upkeep'),
    });
  },
  { name: 'database-upkeep', dependencies: ['jobs'] },
);
