// npm run bench:loyalty-search: the staff Account / Order Lookup (POST /api/admin/loyalty/search/)
// over 100,000 loyalty accounts with their orders, through HTTP with a real login token, one
// request at a time: a 4-character fragment (of a name, an email or a phone), a claimed order
// id, and a whole email. Median and p99 of each, beside a baseline in the same process on the
// same database: a bare prepared select of one account by its primary key (no HTTP, no
// session or permission check). Goal: p99 <= 50 ms on PostgreSQL and PGlite. Exits non-zero
// when an answer is wrong.
//
//   BENCH_SECONDS=5        seconds per kind (after a 1 s warm-up)
//   BENCH_DB=pglite        one database only (pglite or postgres); default both when PostgreSQL answers
//   BENCH_ACCOUNTS=100000  loyalty accounts seeded (each with one to three claimed orders)
//   TEST_DATABASE_URL      PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { STAFF_LOYALTY_API, type SearchResult } from '@boardwalk/contract/staff-loyalty';
import { loyaltyAccounts } from '@boardwalk/db/schema';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import {
  fmt,
  measureSequential,
  positiveNumber,
  type Measurement,
  benchHeader,
  databaseKinds,
  type DatabaseKind,
} from './bench-support.ts';

const GOAL_P99_MS = 50;
const seconds = positiveNumber('BENCH_SECONDS', 5);
const accountCount = positiveNumber('BENCH_ACCOUNTS', 100_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const ADMIN_EMAIL = 'bench-admin@example.com';
const ADMIN_PASSWORD = 'bench admin password';
const failures: string[] = [];

/** One request at a time: a 1 s warm-up, then `seconds` of measurement. */
const sample = (name: string, once: () => Promise<void>) => measureSequential(name, seconds, once, () => undefined);

const FIRST = [
  'Ana',
  'Ben',
  'Carla',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jon',
  'Kim',
  'Luis',
  'Maya',
  'Noor',
  'Omar',
  'Pia',
];
const LAST = ['Lopez', 'Diaz', 'Nguyen', 'Smith', 'Garcia', 'Johnson', 'Okafor', 'Rossi', 'Tanaka', 'Novak', 'Silva', 'Meyer', 'Haddad'];
const sqlArray = (values: string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(',')}]`);

/** The i-th account's values, as the seed writes them (1-based), so the bench knows what to look for. */
const firstOf = (i: number) => FIRST[i % FIRST.length]!;
const lastOf = (i: number) => `${LAST[(i * 7) % LAST.length]!}${i % 89}`;
const emailOf = (i: number) => `${firstOf(i).toLowerCase()}.${lastOf(i).toLowerCase()}.${i}@example.com`;
/** Ticket orders: account i claimed order 30,000,000 + i (and some a check and a stay too). */
const orderIdOf = (i: number) => String(30_000_000 + i);

/** 100,000 accounts, their orders (a ticket each, a check for every second, a stay for every fifth) and earn entries, in SQL. */
async function seed(database: TestDatabase) {
  const db = database.db;
  await db.execute(sql`
    insert into loyalty_accounts (email, first_name, last_name, created_by, phone, zip, created_at)
    select lower((${sqlArray(FIRST)})[1 + i % ${FIRST.length}]) || '.' || lower((${sqlArray(LAST)})[1 + (i * 7) % ${LAST.length}] || (i % 89)) || '.' || i || '@example.com',
           (${sqlArray(FIRST)})[1 + i % ${FIRST.length}],
           (${sqlArray(LAST)})[1 + (i * 7) % ${LAST.length}] || (i % 89),
           case when i % 3 = 0 then 'guest' else 'staff' end,
           case when i % 4 = 0 then null else (310 + i % 600)::text || lpad(((i * 7919) % 10000000)::text, 7, '0') end,
           case when i % 5 = 0 then null else lpad((90000 + (i * 31) % 9999)::text, 5, '0') end,
           now() - (i % 365) * interval '1 day'
    from generate_series(1, ${accountCount}) as i`);
  // The account of seed number i is found by its email's number.
  await db.execute(sql`
    create temporary table bench_seed as
    select id as account_id, substring(email from '\\.(\\d+)@')::int as i from loyalty_accounts`);
  await db.execute(sql`
    insert into loyalty_orders (account_id, source_type, source_id, reference, product, amount, purchased_at)
    select account_id, 'ticket', lpad((30000000 + i)::text, 8, '0') || lpad(i::text, 8, '0'), (30000000 + i)::text, 'Day Ticket', 59.99, now() - (i % 80) * interval '1 day'
    from bench_seed
    union all
    select account_id, 'food-and-beverage', 'FB' || i, (4000 + i % 5000)::text, 'Food & Beverage (FB-01)', 12.5, now() - (i % 80) * interval '1 day'
    from bench_seed where i % 2 = 0
    union all
    select account_id, 'hotel', 'H' || i, 'H' || i, 'Hotel stay', 300, now() - (i % 80) * interval '1 day'
    from bench_seed where i % 5 = 0`);
  await db.execute(sql`
    insert into loyalty_ledger (account_id, points, kind, reason, loyalty_order_id, source_type, source_id, caused_by)
    select account_id, floor(amount)::int, 'earn', 'claimed', id, source_type, source_id, 'guest' from loyalty_orders`);
  await db.execute(sql`drop table bench_seed`);
  await db.execute(sql`analyze`);
}

async function benchDatabase(kind: DatabaseKind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-loyalty-'));
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-loyalty-${process.pid}` });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const seedStart = performance.now();
    await seed(database);
    const seeded = (performance.now() - seedStart) / 1000;
    const login = await fetch(`${base}/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teamMemberUsername: ADMIN_EMAIL, teamMemberPassword: ADMIN_PASSWORD }),
    });
    if (login.status !== 201) throw new Error(`login answered ${login.status}: ${await login.text()}`);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };

    /** One search; throws unless it answers 200 with rows, and (when given) the account with this email among them. */
    const search = async (term: string, mustFind?: string) => {
      const res = await fetch(`${base}${STAFF_LOYALTY_API}search/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ searchTerm: term }),
      });
      const rows = (await res.json()) as SearchResult[];
      if (res.status !== 200 || !Array.isArray(rows) || rows.length === 0 || (mustFind && !rows.some((r) => r.STREMAIL === mustFind))) {
        const problem = `search ${term}: ${res.status}, ${Array.isArray(rows) ? rows.length : JSON.stringify(rows)} rows`;
        failures.push(problem);
        throw new Error(problem);
      }
    };
    // Spread over the seeded accounts, so neither the cache nor one plan is all that is measured.
    const pick = (n: number) => 1 + ((n * 7_919) % accountCount);
    const fragments = ['arci', 'kafo', 'tana', 'hadd', 'nova', 'arla', 'ssi4', '3455', 'ez12'];
    let n = 0;
    const byFragment = () => search(fragments[n++ % fragments.length]!);
    const byOrderId = () => {
      const i = pick(n++);
      return search(orderIdOf(i), emailOf(i));
    };
    const byEmail = () => {
      const i = pick(n++);
      return search(emailOf(i), emailOf(i));
    };

    // The baseline: one account by its primary key, a bare prepared select.
    const ids = (await database.db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).limit(1000)).map((r) => r.id);
    const one = database.db
      .select()
      .from(loyaltyAccounts)
      .where(eq(loyaltyAccounts.id, sql.placeholder('id')))
      .prepare('bench_loyalty_account');
    const bare = async () => {
      const rows = await one.execute({ id: ids[n++ % ids.length]! });
      if (rows.length !== 1) throw new Error(`bare select: ${rows.length} rows`);
    };

    const counts = (await database.db.execute(
      sql`select (select count(*) from loyalty_accounts)::int as accounts, (select count(*) from loyalty_orders)::int as orders, version() as version`,
    )) as unknown as { rows: { accounts: number; orders: number; version: string }[] };
    const { accounts, orders, version } = counts.rows[0]!;
    console.log(
      `\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} (${version.split(' on ')[0] ?? kind}), ${fmt(accounts)} accounts, ${fmt(orders)} loyalty orders (seeded in ${fmt(seeded, 1)} s); load average ${fmt(loadavg()[0] ?? 0, 2)}`,
    );
    const results: Measurement[] = [];
    for (const [name, once] of [
      ['bare select by id', bare],
      ['4-character fragment', byFragment],
      ['order id', byOrderId],
      ['email', byEmail],
    ] as const) {
      results.push(await sample(name, once));
    }
    const baseline = results[0]!;
    for (const r of results) {
      const goal =
        r === baseline ? '' : `  x${fmt(r.median / baseline.median, 1)} of bare  p99 goal ${r.p99 <= GOAL_P99_MS ? 'MET' : 'MISSED'}`;
      console.log(
        `  ${r.name.padEnd(22)} median ${fmt(r.median, 2).padStart(6)} ms  p99 ${fmt(r.p99, 2).padStart(6)} ms  (${fmt(r.count)} calls)${goal}`,
      );
    }
    return results;
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const kinds = await databaseKinds(adminUrl);
  console.log(
    benchHeader(
      'bench:loyalty-search',
      `POST ${STAFF_LOYALTY_API}search/ one request at a time through HTTP (server and client in one process), ${seconds} s per kind`,
    ),
  );
  for (const kind of kinds) await benchDatabase(kind);
  if (failures.length > 0) {
    console.log(`RUN FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('\nbench: the run failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
