// npm run bench:retention: one run of the retention job (every rule, as the daily job runs
// it) over BENCH_ROWS (1,000,000) rows of personal data of which 10% are due: attraction usage
// events, mails, staff sessions and registrations of expired tickets, in those shares. Beside
// it, the baseline: bare DELETEs (and the UPDATE of the registrations) of the same due rows,
// on a second copy of the same data in the same database, with no rule, count or job. Prints
// each one's time and the process's peak memory (resident set) while it ran, on PostgreSQL and
// PGlite; the job removes in the database, so the server's memory should not grow with the rows.
//
//   BENCH_ROWS=1000000   rows in all (per copy)
//   BENCH_DB=pglite      one database only (pglite or postgres); default both when PostgreSQL answers
//   TEST_DATABASE_URL    PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { loadavg } from 'node:os';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { benchHeader, databaseKinds, fmt, positiveNumber } from './bench-support.ts';

const rows = positiveNumber('BENCH_ROWS', 1_000_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;

/** The shares of the rows, by table; each has 10% due. */
const SHARES = { usage: 0.7, mails: 0.15, sessions: 0.05, registrations: 0.1 };

/**
 * Writes one copy of the data under `tag` (its rows told apart by it): 10% of each kind dated
 * past every period (800 days back), the rest recent.
 */
async function seed(database: TestDatabase, tag: string) {
  const n = (share: number) => Math.round(rows * share);
  const old = `now() - interval '800 days'`;
  const recent = `now() - interval '1 day'`;
  const dated = (i: string) => `case when ${i} % 10 = 0 then ${old} else ${recent} end`;
  const exec = (text: string) => database.executeSql(text);
  await exec(`insert into attraction_usage (barcode, attraction, location, timestamp)
    select '${tag}' || g, 'Ferris Wheel', 'Pier', ${dated('g')} - (g || ' milliseconds')::interval from generate_series(1, ${n(SHARES.usage)}) g`);
  await exec(`insert into outbox ("to", subject, sent_at)
    select '${tag}' || g || '@example.com', 'Your pass', ${dated('g')} from generate_series(1, ${n(SHARES.mails)}) g`);
  await exec(`insert into staff_sessions (team_member_guid, end_timestamp, active, access_token_hash)
    select (select guid from team_members limit 1), ${dated('g')}, false, '${tag}' || g from generate_series(1, ${n(SHARES.sessions)}) g`);
  await exec(`insert into orders (order_id, order_date) values ('${tag}', now())`);
  await exec(`insert into tickets (barcode, order_id, position, product, expires)
    select '${tag}-' || g, '${tag}', g, 'Day Ticket', ${dated('g')} from generate_series(1, ${n(SHARES.registrations)}) g`);
  await exec(`insert into registrations (barcode, first_name, last_name, email, phone)
    select '${tag}-' || g, 'Rae', 'Guest', '${tag}' || g || '@example.com', '5555550100' from generate_series(1, ${n(SHARES.registrations)}) g`);
}

/** The bare removal of one copy's due rows. */
async function bareRemoval(database: TestDatabase, tag: string) {
  const exec = (text: string) => database.executeSql(text);
  const due = `now() - interval '100 days'`;
  await exec(`delete from attraction_usage where barcode like '${tag}%' and timestamp < ${due}`);
  await exec(`delete from outbox where "to" like '${tag}%' and sent_at < ${due}`);
  await exec(`delete from staff_sessions where access_token_hash like '${tag}%' and end_timestamp < ${due}`);
  await exec(`update registrations set first_name = '', last_name = '', email = '', phone = '' where barcode in
    (select barcode from tickets where order_id = '${tag}' and expires < ${due})`);
}

/** Runs `work`, answering its seconds and the peak resident memory seen while it ran (sampled every 10 ms). */
async function measured(work: () => Promise<unknown>) {
  let peak = process.memoryUsage.rss();
  const before = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds: (performance.now() - started) / 1000, before, peak };
}

const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;

async function measure(kind: 'postgres' | 'pglite') {
  const database = await createTestDatabase(kind);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DELIVERY_WORKERS: 'false', ADMIN_PASSWORD: 'bench admin password' });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const seeded = await measured(async () => {
      await seed(database, 'job');
      await seed(database, 'bare');
    });
    // Both copies are due alike; the job's run takes every due row (of both copies), so the
    // bare removal goes first, on its copy only, and the job then takes the rest: its own copy.
    const bare = await measured(() => bareRemoval(database, 'bare'));
    let removed: Record<string, number> = {};
    const job = await measured(async () => (removed = await app.retention.run()));
    const { rows: left } = await database.executeSql(
      `select count(*)::int as usage from attraction_usage where timestamp < now() - interval '100 days'`,
    );
    if (left[0]?.usage !== 0) throw new Error(`the job left ${String(left[0]?.usage)} due usage events`);
    console.log(
      `\n${kind}: ${fmt(rows)} rows per copy (10% due), 2 copies seeded in ${fmt(seeded.seconds, 1)} s; load average ${fmt(loadavg()[0] ?? 0, 2)}`,
    );
    console.log(`  retention job      ${fmt(job.seconds, 2).padStart(7)} s  peak memory ${mb(job.peak)} (${mb(job.before)} before)`);
    console.log(
      `    removed: ${Object.entries(removed)
        .map(([category, count]) => `${category} ${fmt(count)}`)
        .join(', ')}`,
    );
    console.log(`  bare removal       ${fmt(bare.seconds, 2).padStart(7)} s  peak memory ${mb(bare.peak)} (${mb(bare.before)} before)`);
    console.log(`  ratio job / bare: ${(job.seconds / bare.seconds).toFixed(2)}x the time`);
  } finally {
    await app.close();
    await database.close();
  }
}

console.log(benchHeader('bench:retention', `one retention run over ${fmt(rows)} rows, 10% due, beside bare deletes`));
for (const kind of await databaseKinds(adminUrl)) await measure(kind);
