// Birthday gifts: on a member's birthday (the park's calendar date), the best birthday campaign
// running that day gives them its points once that year, cut to what is left of its budget and
// of the member's cap. The job runs at start and every 15 minutes, so a gift comes within
// minutes of the day starting; a run, a retry, a restart and two workers at once give it once
// (loyalty_birthday_gifts' primary key: one gift per member and year). Feb 29 birthdays are
// celebrated on Feb 28 in the years without one (docs/loyalty-campaigns.md).
import { and, asc, eq, gt, inArray, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyBirthdayGifts } from '@boardwalk/db/schema';
import { parkDate } from '../platform/park-time.ts';
import { findEarnedForTiers, findRunningCampaigns, type CampaignRule } from './loyalty-campaigns.repo.ts';
import { cutToCapsAndBudgets, mostBonusPoints } from './loyalty-campaigns.service.ts';
import type { NewLedgerEntry } from './loyalty.repo.ts';
import { appendLedger, type LoyaltyCore } from './loyalty.service.ts';

/** Members given their gifts per transaction. */
const BATCH = 200;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The birthdays a calendar date celebrates (month, days): Feb 28 also Feb 29's in a year without one. */
export function birthdaysOn(date: string): { month: number; days: number[] } {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { month, days: month === 2 && day === 28 && !isLeapYear(year) ? [28, 29] : [day] };
}

/**
 * Gives today's birthday gifts (today: the park's calendar date at `now`), a batch of members
 * per transaction, until none is left: the number of gifts given.
 */
export async function giveBirthdayGifts(core: Pick<LoyaltyCore, 'db' | 'changes' | 'config'>, now: Date): Promise<number> {
  const today = parkDate(now, core.config.parkTimezone);
  const campaigns = await findRunningCampaigns(core.db, ['birthday'], today, today);
  if (campaigns.length === 0) return 0;
  const year = Number(today.slice(0, 4));
  const { month, days } = birthdaysOn(today);
  let given = 0;
  let after = '';
  for (;;) {
    // Members born today with no gift this year, in id order (a page after the last one seen).
    const batch = await core.db
      .select({ id: loyaltyAccounts.id })
      .from(loyaltyAccounts)
      .where(
        and(
          eq(loyaltyAccounts.birthMonth, month),
          inArray(loyaltyAccounts.birthDay, days),
          isNotNull(loyaltyAccounts.emailProvenAt),
          isNull(loyaltyAccounts.erasedAt),
          after ? gt(loyaltyAccounts.id, after) : undefined,
          notExists(
            core.db
              .select({ one: sql`1` })
              .from(loyaltyBirthdayGifts)
              .where(and(eq(loyaltyBirthdayGifts.accountId, loyaltyAccounts.id), eq(loyaltyBirthdayGifts.year, year))),
          ),
        ),
      )
      .orderBy(asc(loyaltyAccounts.id))
      .limit(BATCH);
    if (batch.length === 0) return given;
    after = batch.at(-1)!.id;
    given += await giveBatch(
      core,
      batch.map((member) => member.id),
      campaigns,
      year,
      now,
    );
  }
}

/**
 * One batch's gifts in one transaction: the members locked by one statement that skips those
 * another change holds (a claim, another run: they get theirs at the next run, and no lock
 * order between the batch and a claim can deadlock), their gift rows inserted (a member another
 * run gave a gift this year meanwhile gets none: the primary key), each the best campaign's
 * points cut to its budget and their cap, written as bonus entries.
 */
async function giveBatch(
  core: Pick<LoyaltyCore, 'db' | 'changes'>,
  accountIds: string[],
  campaigns: CampaignRule[],
  year: number,
  now: Date,
): Promise<number> {
  return core.db.transaction(async (tx) => {
    const locked = (
      await tx
        .select({ id: loyaltyAccounts.id })
        .from(loyaltyAccounts)
        .where(inArray(loyaltyAccounts.id, accountIds))
        .for('update', { skipLocked: true })
    ).map((row) => row.id);
    if (locked.length === 0) return 0;
    accountIds = locked;
    const earned = campaigns.some((c) => c.minimumTierPoints !== null)
      ? await findEarnedForTiers(tx, accountIds, now)
      : new Map<string, number>();
    const wanted = accountIds.flatMap((accountId) => {
      const campaign = mostBonusPoints(campaigns, earned.get(accountId) ?? 0);
      return campaign ? [{ accountId, campaign, points: campaign.bonusPoints ?? 0 }] : [];
    });
    if (wanted.length === 0) return 0;
    const mine = new Set(
      (
        await tx
          .insert(loyaltyBirthdayGifts)
          .values(wanted.map((w) => ({ accountId: w.accountId, campaignId: w.campaign.id, year, points: w.points })))
          .onConflictDoNothing()
          .returning({ accountId: loyaltyBirthdayGifts.accountId })
      ).map((row) => row.accountId),
    );
    const gifts = wanted.filter((w) => mine.has(w.accountId));
    const cut = await cutToCapsAndBudgets(tx, now, gifts);
    const entries: NewLedgerEntry[] = [];
    for (const [i, gift] of gifts.entries()) {
      const points = cut.points[i]!;
      if (points !== gift.points) await setGiftPoints(tx, gift.accountId, year, points);
      if (points > 0) {
        entries.push({
          accountId: gift.accountId,
          points,
          kind: 'bonus',
          reason: gift.campaign.name,
          campaignId: gift.campaign.id,
          causedBy: 'system',
        });
      }
    }
    await appendLedger(tx, core.changes, entries, { locked: true, events: cut.events });
    return entries.length;
  });
}

/** What a gift gave after its budget and cap: what the row keeps. */
async function setGiftPoints(tx: Executor, accountId: string, year: number, points: number) {
  await tx
    .update(loyaltyBirthdayGifts)
    .set({ points })
    .where(and(eq(loyaltyBirthdayGifts.accountId, accountId), eq(loyaltyBirthdayGifts.year, year)));
}
