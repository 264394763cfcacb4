// npm run bench:redemptions: rewards redeemed at the tills, many at once, on PostgreSQL and on
// PGlite. Each redemption is one member redeeming a reward through POST
// /api/integrations/loyalty/redemptions over HTTP with the card's barcode (the key and its
// scope checked, the account locked by its card token, the
// reward, balance, tier and limit checked, the redemption and its ledger entry written, the
// lots spent oldest expiry first, the account published). Beside it in the same run and
// process, the baseline: a bare write of the same rows (the redemption, its ledger entry, its
// two events for the operator's systems, the change of the member's lot and the record of what
// it took from the lot, in one
// transaction, no HTTP) on the same database with the
// same concurrency, for members seeded the same way (100 points in one lot). Prints redemptions per
// second, p50 and p99 of each and their ratio (goal: at least 0.3); exits non-zero when a
// redemption fails.
//
//   BENCH_REDEMPTIONS=2000  redemptions per run (each by a member of its own)
//   BENCH_CONCURRENCY=50    redemptions in flight at once
//   BENCH_ROUNDS=5          rounds, Boardwalk's and the baseline's interleaved
//   BENCH_WARM_UP=500       redemptions per side first, not measured (by members of their own)
//   BENCH_DATABASES=postgres,pglite
//   TEST_DATABASE_URL       PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import {
  integrationEvents,
  loyaltyAccounts,
  loyaltyLedger,
  loyaltyLots,
  loyaltyRedemptionLots,
  loyaltyRedemptions,
  loyaltyRewards,
} from '@boardwalk/db/schema';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { appendLedger, loyaltyCoreOf } from '../apps/api/src/loyalty/loyalty.service.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { fmt, interleaved, positiveNumber, postgresProblem, type Call, type ConcurrentFigures } from './bench-support.ts';

const redemptions = positiveNumber('BENCH_REDEMPTIONS', 2000);
const concurrency = positiveNumber('BENCH_CONCURRENCY', 50);
const kinds = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',').map((k) => k.trim()) as ('postgres' | 'pglite')[];
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const INTEGRATION_KEY = 'bench-integration-key-0123456789';
const COST = 10;

const rounds = positiveNumber('BENCH_ROUNDS', 5);
const warmUp = positiveNumber('BENCH_WARM_UP', 500);

/** `count` members, each with 100 points in one lot (written through appendLedger). */
async function seedMembers(database: TestDatabase, core: ReturnType<typeof loyaltyCoreOf>, round: number, count: number) {
  const members: { id: string; memberNumber: string; cardToken: string }[] = [];
  for (let from = 0; from < count; from += 500) {
    const rows = await database.db
      .insert(loyaltyAccounts)
      .values(
        Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
          email: `bench${round}-${from + i}@example.com`,
          firstName: 'Bench',
          lastName: `Member ${from + i}`,
          createdBy: 'staff',
          // Created by staff: proven (a till spends nothing for an unproven account).
          emailProvenAt: new Date(),
          emailProvenBy: 'staff',
        })),
      )
      .returning({ id: loyaltyAccounts.id, memberNumber: loyaltyAccounts.memberNumber, cardToken: loyaltyAccounts.cardToken });
    await database.db.transaction((tx) =>
      appendLedger(
        tx,
        core.changes,
        rows.map((row) => ({
          accountId: row.id,
          points: 100,
          kind: 'adjustment',
          reason: 'bench',
          causedBy: 'staff',
          staffMember: 'bench',
        })),
      ),
    );
    members.push(...rows);
  }
  return members;
}

async function measure(kind: 'postgres' | 'pglite') {
  const database = await createTestDatabase(kind, 20);
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    DELIVERY_WORKERS: 'false',
    INTEGRATION_API_KEYS: `bench:${INTEGRATION_KEY}:members+redeem+reverse`,
    ADMIN_PASSWORD: 'bench admin password',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const core = loyaltyCoreOf(app);
    const [reward] = await database.db.insert(loyaltyRewards).values({ name: 'Soda', pointsCost: COST }).returning();
    const members = await seedMembers(database, core, 1, redemptions + warmUp);
    const bareMembers = await seedMembers(database, core, 2, redemptions + warmUp);
    const lotOf = new Map(
      (await database.db.select({ id: loyaltyLots.id, accountId: loyaltyLots.accountId }).from(loyaltyLots)).map((lot) => [
        lot.accountId,
        lot.id,
      ]),
    );

    const redeem: Call = async (i) => {
      const response = await fetch(`${base}/api/integrations/loyalty/redemptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${INTEGRATION_KEY}` },
        body: JSON.stringify({ card: members[i]!.cardToken, rewardId: reward!.id, idempotencyKey: `bench-${i}` }),
      });
      const body = (await response.json()) as { balance?: number };
      if (response.status !== 201 || body.balance !== 100 - COST)
        throw new Error(`redemption ${i} failed: ${response.status} ${JSON.stringify(body)}`);
    };
    const bareWrite: Call = async (i) => {
      const accountId = bareMembers[i]!.id;
      await database.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(loyaltyRedemptions)
          .values({
            idempotencyKey: `bare-${i}`,
            accountId,
            rewardId: reward!.id,
            rewardName: 'Soda',
            pointsSpent: COST,
            balanceAfter: 100 - COST,
            causedBy: 'till',
            system: 'bench',
          })
          .returning({ id: loyaltyRedemptions.id });
        const [entry] = await tx
          .insert(loyaltyLedger)
          .values({
            accountId,
            points: -COST,
            kind: 'redemption',
            reason: 'redeemed: Soda',
            redemptionId: row!.id,
            causedBy: 'till',
            system: 'bench',
          })
          .returning({ id: loyaltyLedger.id, at: loyaltyLedger.createdAt });
        // The events a redemption tells the operator's systems (loyalty.points_changed, loyalty.reward_redeemed).
        const { memberNumber } = bareMembers[i]!;
        await tx.insert(integrationEvents).values([
          {
            type: 'loyalty.points_changed',
            subject: `member:${memberNumber}`,
            data: {
              memberNumber,
              entry: { id: String(entry!.id), points: -COST, kind: 'redemption', reason: 'redeemed: Soda', at: entry!.at.toISOString() },
              balance: 100 - COST,
            },
            system: 'bench',
          },
          {
            type: 'loyalty.reward_redeemed',
            subject: `member:${memberNumber}`,
            data: {
              memberNumber,
              redemptionId: row!.id,
              rewardId: reward!.id,
              rewardName: 'Soda',
              pointsSpent: COST,
              balance: 100 - COST,
              redeemedBy: 'till',
            },
            system: 'bench',
          },
        ]);
        await tx
          .update(loyaltyLots)
          .set({ remaining: sql`${loyaltyLots.remaining} - ${COST}` })
          .where(eq(loyaltyLots.id, lotOf.get(accountId)!));
        await tx.insert(loyaltyRedemptionLots).values({ redemptionId: row!.id, lotId: lotOf.get(accountId)!, points: COST });
      });
    };
    const [boardwalk, bare] = await interleaved(
      [
        ['Boardwalk redemption (HTTP)', redeem],
        ['bare write of the same rows', bareWrite],
      ],
      { count: redemptions, concurrency, rounds, warmUp },
    );
    const line = (f: ConcurrentFigures) =>
      `  ${f.name.padEnd(32)} ${fmt(f.perSecond).padStart(7)} redemptions/s  p50 ${fmt(f.p50, 1).padStart(6)} ms  p99 ${fmt(f.p99, 1).padStart(6)} ms`;
    console.log(
      `\nbench:redemptions, ${kind}, ${fmt(redemptions)} redemptions, ${concurrency} at once, in ${rounds} interleaved rounds after ${fmt(warmUp)} each to warm up, load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log(line(boardwalk));
    console.log(line(bare));
    console.log(
      `  ratio Boardwalk / bare: ${(boardwalk.perSecond / bare.perSecond).toFixed(2)} (redemptions/s; goal >= 0.3), p99 ${(boardwalk.p99 / bare.p99).toFixed(2)}x`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}

async function main() {
  console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]!.toFixed(2)}`);
  for (const kind of kinds) {
    if (kind === 'postgres') {
      const problem = await postgresProblem(adminUrl);
      if (problem) {
        console.log(`\nbench:redemptions, postgres: skipped (${problem})`);
        continue;
      }
    }
    await measure(kind);
  }
}

await main();
