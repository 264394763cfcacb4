// npm run bench:statement: the member's statement (GET /api/loyalty/statement with the link's
// bearer token) for a member with 5,000 ledger entries, among 2,000 members of 40 entries each,
// with 3 tiers and 20 rewards, through HTTP one request at a time; and an older page of their
// ledger (GET /api/loyalty/statement/ledger?before=). Median and p99 beside a baseline in the
// same process on the same database: a bare prepared select of the member's account by its
// primary key (no HTTP, no token check); and each answer without HTTP (the service, the page's
// query), which tells the database's share from the server's. Goal: statement p99 <= 50 ms on PostgreSQL and PGlite.
// Exits non-zero when an answer is wrong.
//
//   BENCH_SECONDS=5        seconds per kind (after a 1 s warm-up)
//   BENCH_DB=pglite        one database only (pglite or postgres); default both when PostgreSQL answers
//   BENCH_ENTRIES=5000     the member's ledger entries
//   TEST_DATABASE_URL      PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import {
  LOYALTY_STATEMENT_TOKEN,
  STATEMENT_PAGE_SIZE,
  type Statement,
  type StatementLedgerPage,
} from '@boardwalk/contract/loyalty-statement';
import { loyaltyAccounts } from '@boardwalk/db/schema';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { readStatement } from '../apps/api/src/guest/loyalty/loyalty-statement.service.ts';
import { findLedgerPage } from '../apps/api/src/loyalty/loyalty.repo.ts';
import { loyaltyCoreOf } from '../apps/api/src/loyalty/loyalty.service.ts';
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
const entryCount = positiveNumber('BENCH_ENTRIES', 5_000);
const OTHER_MEMBERS = 2_000;
const OTHER_ENTRIES = 40;
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const failures: string[] = [];

const sample = (name: string, once: () => Promise<void>) => measureSequential(name, seconds, once, () => undefined);

/**
 * The members and their ledgers, in SQL: each member's entries are claims of tickets (an order
 * and its earn entry) spread over the last two years, with a redemption of 5 points after
 * every ninth claim; the one measured member has `entryCount` entries. Tiers and rewards as an
 * operator would declare them.
 */
async function seed(database: TestDatabase): Promise<string> {
  const db = database.db;
  await db.execute(sql`
    insert into loyalty_accounts (email, first_name, last_name, created_by, created_at, email_proven_at)
    select 'member' || i || '@example.com', 'Member', 'No ' || i, 'guest', now() - interval '2 years', now() - interval '2 years'
    from generate_series(0, ${OTHER_MEMBERS}) as i`);
  await db.execute(sql`
    insert into loyalty_tiers (name, points_to_reach) values ('Silver', 500), ('Gold', 5000), ('Platinum', 1000000)`);
  await db.execute(sql`
    insert into loyalty_rewards (name, description, points_cost, minimum_tier, limit_per_member)
    select 'Reward ' || i, 'A treat', 25 * i, case when i % 4 = 0 then 'Gold' end, case when i % 3 = 0 then 2 end
    from generate_series(1, 20) as i`);
  await db.execute(sql`
    create temporary table bench_entries as
    select a.id as account_id, n, (a.email = 'member0@example.com') as measured
    from loyalty_accounts a
    cross join lateral generate_series(1, case when a.email = 'member0@example.com' then ${entryCount}::int else ${OTHER_ENTRIES} end) as n`);
  await db.execute(sql`
    insert into loyalty_orders (account_id, source_type, source_id, reference, product, amount, purchased_at)
    select account_id, 'ticket', account_id || '-' || n, (10000000 + n)::text, 'Day Ticket', 12, now() - (n % 730) * interval '1 day'
    from bench_entries where n % 10 <> 0`);
  await db.execute(sql`
    insert into loyalty_ledger (account_id, points, kind, reason, loyalty_order_id, source_type, source_id, caused_by, created_at)
    select account_id, 12, 'earn', 'claimed', id, source_type, source_id, 'guest', purchased_at from loyalty_orders`);
  await db.execute(sql`
    insert into loyalty_ledger (account_id, points, kind, reason, caused_by, staff_member, created_at)
    select account_id, -5, 'adjustment', 'bench deduction', 'staff', 'bench', now() - (n % 730) * interval '1 day'
    from bench_entries where n % 10 = 0`);
  await db.execute(sql`drop table bench_entries`);
  await db.execute(sql`analyze`);
  const [member] = await db
    .select({ id: loyaltyAccounts.id })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.email, 'member0@example.com'));
  return member!.id;
}

async function benchDatabase(kind: DatabaseKind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-statement-'));
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench admin password' });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-statement-${process.pid}` });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const seedStart = performance.now();
    const accountId = await seed(database);
    const seeded = (performance.now() - seedStart) / 1000;
    const headers = {
      authorization: `Bearer ${app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, accountId, LOYALTY_STATEMENT_TOKEN.ttlSeconds)}`,
    };
    const get = async <T>(path: string, check: (body: T) => boolean) => {
      const res = await fetch(`${base}${path}`, { headers });
      const body = (await res.json()) as T;
      if (res.status !== 200 || !check(body)) {
        const problem = `${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`;
        failures.push(problem);
        throw new Error(problem);
      }
      return body;
    };
    const first = await get<Statement>('/api/loyalty/statement', (s) => s.ledger.entries.length === STATEMENT_PAGE_SIZE);
    const statement = () =>
      get<Statement>(
        '/api/loyalty/statement',
        (s) => s.balance === first.balance && s.ledger.entries.length === STATEMENT_PAGE_SIZE && s.rewards.length === 20,
      ).then(() => undefined);
    // An older page halfway down the ledger.
    const middle = first.ledger.entries[0]!.id - Math.floor(entryCount / 2);
    const olderPage = () =>
      get<StatementLedgerPage>(`/api/loyalty/statement/ledger?before=${middle}`, (p) => p.entries.length === STATEMENT_PAGE_SIZE).then(
        () => undefined,
      );

    // The baseline: the member's account by its primary key, a bare prepared select.
    const one = database.db
      .select()
      .from(loyaltyAccounts)
      .where(eq(loyaltyAccounts.id, sql.placeholder('id')))
      .prepare('bench_statement_account');
    const bare = async () => {
      const rows = await one.execute({ id: accountId });
      if (rows.length !== 1) throw new Error(`bare select: ${rows.length} rows`);
    };

    // The same answers without HTTP: what the database and the service take.
    const token = headers.authorization.slice('Bearer '.length);
    const serviceOnly = async () => {
      const s = await readStatement({ core: loyaltyCoreOf(app), keys: app.keys }, token);
      if (s.balance !== first.balance) throw new Error('statement (no HTTP): wrong balance');
    };
    const pageQuery = async () => {
      const page = await findLedgerPage(database.db, accountId, { before: middle, limit: STATEMENT_PAGE_SIZE });
      if (page.entries.length !== STATEMENT_PAGE_SIZE) throw new Error('ledger page query: wrong size');
    };

    const counts = (await database.db.execute(
      sql`select (select count(*) from loyalty_ledger where account_id = ${accountId})::int as mine, (select count(*) from loyalty_ledger)::int as ledger, version() as version`,
    )) as unknown as { rows: { mine: number; ledger: number; version: string }[] };
    const { mine, ledger, version } = counts.rows[0]!;
    console.log(
      `\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} (${version.split(' on ')[0] ?? kind}), the member's ${fmt(mine)} entries of ${fmt(ledger)} ` +
        `(seeded in ${fmt(seeded, 1)} s); balance ${fmt(first.balance)}, tier ${first.tier?.name ?? 'none'}; load average ${fmt(loadavg()[0] ?? 0, 2)}`,
    );
    const results: Measurement[] = [];
    for (const [name, once] of [
      ['bare select by id', bare],
      ['statement', statement],
      ['  its service, no HTTP', serviceOnly],
      ['older ledger page', olderPage],
      ['  its query, no HTTP', pageQuery],
    ] as const) {
      results.push(await sample(name, once));
    }
    const baseline = results[0]!;
    for (const r of results) {
      const goal =
        r === baseline || r.name.startsWith(' ')
          ? ''
          : `  x${fmt(r.median / baseline.median, 1)} of bare  p99 goal ${r.p99 <= GOAL_P99_MS ? 'MET' : 'MISSED'}`;
      console.log(
        `  ${r.name.padEnd(20)} median ${fmt(r.median, 2).padStart(6)} ms  p99 ${fmt(r.p99, 2).padStart(6)} ms  (${fmt(r.count)} calls)${goal}`,
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
      'bench:statement',
      `GET /api/loyalty/statement one request at a time through HTTP (server and client in one process), ${seconds} s per kind`,
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
