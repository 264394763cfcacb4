// npm run bench:claims: loyalty claims on PostgreSQL, many at once. Each claim is a new
// member claiming a purchase of its own through POST /api/loyalty/tickets/ over HTTP, from
// undici's client (the account locked, the purchase read, the claim and its ledger entry
// written in one transaction, the balance summed, the wallet token signed). Beside it in the
// same run, the baseline: a bare insert of the same rows (a loyalty order and its earn entry
// in one transaction) on the same database with the same concurrency. Prints claims per
// second, p50 and p99 of each and their ratio, and the CPU this process (the app, its HTTP
// client and the baseline's pool) and PostgreSQL spent per claim; exits non-zero when a claim
// fails.
//
// BENCH_AGAINST=campaigns compares instead claims that three active campaigns apply to (a double
// points multiplier, which wins, a fixed bonus with a cap per member, and a food and beverage
// one) with claims none applies to (the same app and database: the campaigns' days hold the
// first side's purchases, not the second's), each a new member's ticket. BENCH_CHALLENGE=true
// adds a challenge running that day (each claim then queues its member's settling).
//
//   BENCH_AGAINST=bare      bare (the bare insert) or campaigns (claims with three campaigns against claims with none)
//   BENCH_CHALLENGE=false   with campaigns: a challenge running too
//   BENCH_CLAIMS=2000       claims per run (each run gets fresh members and purchases)
//   BENCH_CONCURRENCY=50    claims in flight at once
//   BENCH_ROUNDS=5          rounds, Boardwalk's and the baseline's interleaved
//   BENCH_WARM_UP=500       claims per side first, not measured (by members of their own)
//   BENCH_CPU_PROF=dir      a CPU profile of this process while the claims run (both sides)
//   DATABASE_POOL_SIZE      the app's pool (default: the app's own, three per core, 4 to 10)
//   TEST_DATABASE_URL       PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { Pool } from 'undici';
import { LOYALTY_EMAIL_PROOF } from '@boardwalk/contract/loyalty';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { operatingDay } from '../apps/api/src/platform/park-time.ts';
import { benchPoolSize, fmt, interleaved, positiveNumber, postgresProblem, profiled, type ConcurrentFigures } from './bench-support.ts';

const claims = positiveNumber('BENCH_CLAIMS', 2000);
const concurrency = positiveNumber('BENCH_CONCURRENCY', 50);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const INTEGRATION_KEY = 'bench-integration-key-0123456789';

const rounds = positiveNumber('BENCH_ROUNDS', 5);
const withChallenge = process.env.BENCH_CHALLENGE === 'true';
const against = process.env.BENCH_AGAINST ?? 'bare';
if (against !== 'bare' && against !== 'campaigns') throw new Error(`BENCH_AGAINST must be bare or campaigns, not ${against}`);
/** The baseline's pool: its best (3,300 bare inserts/s with 6 connections, 3,600 to 4,300 with 20). */
const BARE_POOL = 20;
const warmUp = positiveNumber('BENCH_WARM_UP', 500);

const orderIdOf = (round: number, i: number) => String(80_000_000 + round * 100_000 + i);
const barcodeOf = (round: number, i: number) => `${orderIdOf(round, i)}00000001`;

async function main() {
  const problem = await postgresProblem(adminUrl);
  if (problem) throw new Error(`${problem}: bench:claims measures PostgreSQL`);
  const database = await createTestDatabase('postgres', benchPoolSize());
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    DELIVERY_WORKERS: 'false',
    INTEGRATION_API_KEYS: `bench:${INTEGRATION_KEY}`,
    ADMIN_PASSWORD: 'bench admin password',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const pool = new pg.Pool({ connectionString: database.url, max: BARE_POOL });
  // The guests' side: undici's own client, keep-alive, a connection per claim in flight. It
  // runs in this process, so its CPU counts here beside the app's: fetch (undici behind WHATWG
  // streams) cost about 100 µs a claim more (docs/decisions.md, "A claim's statements are
  // rendered once").
  const client = new Pool(base, { connections: concurrency });
  const orderDate = new Date().toISOString();
  // The purchases no campaign applies to: two days before the campaigns' day.
  const earlierDate = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();

  /** Members and purchases of one round, written through the app's own calls. */
  async function prepare(round: number, date = orderDate) {
    const members: { email: string; userID: string; accountId: string }[] = [];
    for (let i = 0; i < claims + warmUp; i++) {
      const email = `bench${round}-${i}@example.com`;
      const put = await app.inject({
        method: 'PUT',
        url: `/api/integrations/orders/${orderIdOf(round, i)}`,
        headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
        payload: {
          orderDate: date,
          // A public claim needs the purchase under the member's email.
          purchaser: { firstName: 'Bench', lastName: `Member ${i}`, email },
          tickets: [{ barcode: barcodeOf(round, i), product: 'Day Ticket', price: 59.99, isPassholder: false, credits: 0, cash: 0 }],
        },
      });
      if (put.statusCode !== 201) throw new Error(`seeding an order failed: ${put.statusCode} ${put.body}`);
      const created = await app.inject({
        method: 'POST',
        url: '/api/loyalty/create',
        // The email proven as its one-time code proves it (what confirm answers), made directly: the bench measures claims.
        payload: {
          email,
          firstName: 'Bench',
          lastName: `Member ${i}`,
          proof: app.keys.signToken(LOYALTY_EMAIL_PROOF.purpose, email, LOYALTY_EMAIL_PROOF.ttlSeconds),
        },
        remoteAddress: `10.${round}.${i >> 8}.${i & 255}`,
      });
      if (created.statusCode !== 200) throw new Error(`creating a member failed: ${created.statusCode} ${created.body}`);
      // The guest holds a claim token; the bare insert needs the account's id.
      const { rows } = await pool.query<{ id: string }>('select id from loyalty_accounts where lower(email) = lower($1)', [email]);
      members.push({ email, userID: created.body, accountId: rows[0]!.id });
    }
    return members;
  }

  try {
    console.log(
      `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]!.toFixed(2)}; seeding 2 x ${fmt(claims + warmUp)} members and purchases...`,
    );
    const withCampaigns = against === 'campaigns';
    const [boardwalkMembers, bareMembers] = [await prepare(1), await prepare(2, withCampaigns ? earlierDate : orderDate)];
    if (withCampaigns) {
      // Today's operating day in the park (its default zone) holds the first side's purchases.
      const today = operatingDay(new Date(), config.parkTimezone);
      await pool.query(
        `insert into loyalty_campaigns (name, kind, multiplier, bonus_points, valid_from, valid_to, tickets, food_and_beverage, hotel, cap_per_member)
         values ('Double Points', 'multiplier', 2, null, $1, $1, true, true, true, null),
                ('Welcome Bonus', 'bonus', null, 25, $1, $1, true, true, false, 100),
                ('Food Festival', 'multiplier', 3, null, $1, $1, false, true, false, null)`,
        [today],
      );
      // With BENCH_CHALLENGE, a challenge running that day too: each claim queues its member's settling (a job; the workers are off here).
      if (withChallenge)
        await pool.query(
          `insert into loyalty_campaigns (name, kind, bonus_points, goal, goal_count, valid_from, valid_to)
         values ('Visit Three Days', 'challenge', 300, 'days', 3, $1, $1)`,
          [today],
        );
    }

    const claimOf = (members: typeof boardwalkMembers, round: number, points: number) => async (i: number) => {
      const { email, userID } = members[i]!;
      const response = await client.request({
        method: 'POST',
        path: '/api/loyalty/tickets/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: orderIdOf(round, i), email, userID }),
      });
      const body = (await response.body.json()) as { pointsEarned?: number };
      if (response.statusCode !== 200 || body.pointsEarned !== points)
        throw new Error(`claim ${i} failed: ${response.statusCode} ${JSON.stringify(body)}`);
    };
    // With the campaigns: 59 points and Double Points' 59 more.
    const claim = claimOf(boardwalkMembers, 1, withCampaigns ? 118 : 59);
    const bareInsert = async (i: number) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{ id: string }>(
          `insert into loyalty_orders (account_id, source_type, source_id, reference, product, amount, purchased_at)
           values ($1, 'ticket', $2, $3, 'Day Ticket', 59.99, $4) returning id`,
          [bareMembers[i]!.accountId, barcodeOf(2, i), orderIdOf(2, i), orderDate],
        );
        await client.query(
          `insert into loyalty_ledger (account_id, points, kind, reason, loyalty_order_id, source_type, source_id, caused_by)
           values ($1, 59, 'earn', 'claimed', $2, 'ticket', $3, 'guest')`,
          [bareMembers[i]!.accountId, rows[0]!.id, barcodeOf(2, i)],
        );
        await client.query('commit');
      } finally {
        client.release();
      }
    };
    const [boardwalk, bare] = await profiled('claims', () =>
      interleaved(
        [
          [withCampaigns ? `claim, three campaigns${withChallenge ? ' + challenge' : ''}` : 'Boardwalk claim (HTTP)', claim],
          withCampaigns ? ['claim, no campaign', claimOf(bareMembers, 2, 59)] : ['bare insert of the same rows', bareInsert],
        ],
        { count: claims, concurrency, rounds, warmUp },
      ),
    );

    const line = (f: ConcurrentFigures) =>
      `  ${f.name.padEnd(32)} ${fmt(f.perSecond).padStart(7)} claims/s  p50 ${fmt(f.p50, 1).padStart(6)} ms  p99 ${fmt(f.p99, 1).padStart(6)} ms  CPU of this process ${fmt(f.cpuMicros / f.times.length).padStart(5)} µs a claim` +
      (f.databaseCpuMicros === null ? '' : `, of PostgreSQL ${fmt(f.databaseCpuMicros / f.times.length).padStart(5)} µs`);
    console.log(
      `\nbench:claims, PostgreSQL, ${fmt(claims)} claims, ${concurrency} at once, in ${rounds} interleaved rounds after ${fmt(warmUp)} each to warm up, load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log(line(boardwalk));
    console.log(line(bare));
    console.log(
      `  ratio ${withCampaigns ? 'three campaigns / none' : 'Boardwalk / bare'}: ${(boardwalk.perSecond / bare.perSecond).toFixed(2)} (claims/s), p99 ${(boardwalk.p99 / bare.p99).toFixed(2)}x`,
    );
  } finally {
    await pool.end();
    await client.close();
    await app.close();
    await database.close();
  }
}

await main();
