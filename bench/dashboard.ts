// npm run bench:dashboard: the back office Dashboard's answer (GET /api/admin/dashboard/?range=90)
// over a club of BENCH_MEMBERS (100,000) members and BENCH_ENTRIES (1,000,000) ledger entries
// spread over the last 120 days: 200,000 claims (loyalty orders, each with its earn entry and
// its lot) and the rest redemptions, adjustments, expiries and reversals; three active tiers
// and an inactive one. One call at a time for BENCH_SECONDS (10) after a warm-up: median, p90,
// p99; before them, the first call alone (it counts the closed days, which the others read).
// Baseline, in the same process: the one grouped query the points chart needs at least (the
// ledger's 90 days by day and kind), alone. Goal: p99 <= 200 ms on PostgreSQL, <= 500 ms on PGlite.
//
// BENCH_DB=pglite|postgres (default both when PostgreSQL answers).
import { loadavg } from 'node:os';
import { DASHBOARD_API, type Dashboard } from '@boardwalk/contract/dashboard';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { loginAs } from '../apps/api/test-support/staff.ts';
import { benchHeader, databaseKinds, fmt, measureSequential, positiveNumber, type Measurement } from './bench-support.ts';

const members = positiveNumber('BENCH_MEMBERS', 100_000);
const entries = positiveNumber('BENCH_ENTRIES', 1_000_000);
const seconds = positiveNumber('BENCH_SECONDS', 10);
const claims = Math.min(200_000, Math.floor(entries / 5));
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const GOAL_P99_MS = { postgres: 200, pglite: 500 } as const;

/** The club, written by SQL in a few statements (members and their claims, earns, lots and other entries). */
const seed = [
  `insert into loyalty_accounts (email, first_name, last_name, created_by, created_at)
   select 'member' || i || '@example.com', 'First', 'Last ' || i, case when i % 3 = 0 then 'guest' else 'staff' end,
     now() - (i % 400) * interval '1 day' - (i % 1440) * interval '1 minute'
   from generate_series(1, ${members}) i`,
  `create temporary table numbered as select id, row_number() over (order by id) as n from loyalty_accounts`,
  `insert into loyalty_orders (account_id, source_type, source_id, reference, product, amount, purchased_at, claimed_at)
   select a.id, (array['ticket', 'food-and-beverage', 'hotel'])[1 + i % 3], 'bench-' || i, 'R' || i, 'Bench purchase', 10 + i % 90,
     now() - (i % 120) * interval '1 day' - (i % 1440) * interval '1 minute', now() - (i % 120) * interval '1 day' - (i % 1440) * interval '1 minute'
   from generate_series(1, ${claims}) i join numbered a on a.n = 1 + i % ${members}`,
  `insert into loyalty_ledger (account_id, points, kind, reason, loyalty_order_id, source_type, source_id, caused_by, created_at)
   select account_id, amount::int, 'earn', 'claimed', id, source_type, source_id, 'guest', claimed_at from loyalty_orders`,
  `insert into loyalty_lots (account_id, entry_id, loyalty_order_id, points, remaining, earned_at, expires_at)
   select account_id, id, loyalty_order_id, points, points / 2, created_at, created_at + interval '12 months'
   from loyalty_ledger where kind = 'earn'`,
  `insert into loyalty_ledger (account_id, points, kind, reason, caused_by, created_at)
   select a.id, case when i % 4 = 1 then 5 + i % 20 else -(1 + i % 30) end,
     (array['redemption', 'adjustment', 'expired', 'reversal'])[1 + i % 4], 'bench', 'system',
     now() - (i % 120) * interval '1 day' - (i % 1440) * interval '1 minute'
   from generate_series(1, ${entries - claims}) i join numbered a on a.n = 1 + i % ${members}`,
  `drop table numbered`,
  `insert into loyalty_tiers (name, points_to_reach, active)
   values ('Silver', 50, true), ('Gold', 100, true), ('Platinum', 150, true), ('Retired', 180, false)`,
  // What autovacuum does to tables written long ago: statistics, and the visibility map index-only scans need.
  `vacuum analyze`,
];

const row = (m: Measurement) =>
  `${m.name.padEnd(46)} ${fmt(m.count).padStart(5)} calls  median ${fmt(m.median, 1).padStart(7)} ms  p90 ${fmt(m.p90, 1).padStart(7)} ms  p99 ${fmt(m.p99, 1).padStart(7)} ms`;

async function run(kind: 'pglite' | 'postgres') {
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'bench-admin-password', DELIVERY_WORKERS: 'false' });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${Date.now()}` });
  try {
    const seeding = performance.now();
    for (const statement of seed) await database.executeSql(statement, []);
    const staff = await loginAs(app, { accessLevel: 1000 });
    // The first Dashboard counts the 89 closed days and keeps them (as the first after an upgrade).
    const first = performance.now();
    const cold = await app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=90`, headers: staff.headers });
    if (cold.statusCode !== 200) throw new Error(`dashboard: ${cold.statusCode} ${cold.body}`);
    const firstMs = performance.now() - first;
    const dashboard = await measureSequential(
      'GET /api/admin/dashboard/?range=90',
      seconds,
      () => app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=90`, headers: staff.headers }),
      (res) => {
        if (res.statusCode !== 200) throw new Error(`dashboard: ${res.statusCode} ${res.body}`);
      },
    );
    const answer = (await app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=90`, headers: staff.headers })).json<Dashboard>();
    const bare = await measureSequential(
      "baseline: the ledger's 90 days by day and kind",
      seconds,
      () =>
        database.executeSql(
          `select date_trunc('day', created_at) as day, kind, sum(points)::bigint as points from loyalty_ledger
           where created_at >= now() - interval '90 days' group by 1, 2`,
          [],
        ),
      (result) => {
        if (result.rows.length === 0) throw new Error('the baseline found no entries');
      },
    );
    console.log(
      `\n${kind}: ${fmt(members)} members, ${fmt(entries)} ledger entries (${fmt(claims)} claims), seeded in ${fmt((performance.now() - seeding) / 1000, 1)} s`,
    );
    console.log(`first call, counting the 89 closed days: ${fmt(firstMs, 1)} ms`);
    console.log(row(dashboard));
    console.log(row(bare));
    console.log(
      `ratio (dashboard / baseline, median): ${fmt(dashboard.median / bare.median, 2)}x; p99 ${fmt(dashboard.p99, 1)} ms against the goal of ${GOAL_P99_MS[kind]} ms; ${answer.points.length} days, outstanding ${fmt(answer.outstanding?.points ?? 0)} points`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}

console.log(benchHeader('dashboard', 'the Dashboard over 90 days of a 100,000-member club, against one grouped query of its ledger'));
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const kind of await databaseKinds(adminUrl)) await run(kind);
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
