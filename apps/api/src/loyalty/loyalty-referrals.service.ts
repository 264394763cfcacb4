// Referrals: every member has a referral link (`/loyalty/?ref=CODE`). A new member who joins
// through it, while a referral campaign runs, is recorded as referred (pending); their first
// claim that earns points gives both of them the campaign's bonus, once, cut to its budget and
// each one's cap. Refused with a reason, and nothing created: an unknown link, the member's own
// (their email, or a plus-alias of it), an email that already has an account, a referrer past
// the campaign's referrals per month, no referral campaign running (docs/loyalty-campaigns.md).
import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { REFERRAL_PARAMETER, REFERRAL_REFUSALS, referralMessages, type ReferralRefusal } from '@boardwalk/contract/loyalty';
import type { ReferralSection } from '@boardwalk/contract/loyalty-statement';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyCampaigns, loyaltyReferrals, mailboxKey } from '@boardwalk/db/schema';
import { AppError } from '../platform/errors.ts';
import { operatingDay, parkDate } from '../platform/park-time.ts';
import { findRunningCampaigns } from './loyalty-campaigns.repo.ts';
import { cutToCapsAndBudgets, mostBonusPoints } from './loyalty-campaigns.service.ts';
import { lockAccount, type NewLedgerEntry } from './loyalty.repo.ts';
import { appendLedger, type LedgerChanges } from './loyalty.service.ts';

export const referralRefused = (why: ReferralRefusal) =>
  new AppError('VALIDATION_FAILED', referralMessages[why], { reason: REFERRAL_REFUSALS[why] });

/** An email's mailbox as a referral compares it: lower case, a plus-alias's tag taken out (ana+park@x is ana@x). */
export const mailboxOf = (email: string) => {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  return `${local.split('+')[0]}@${domain}`;
};

/** The referral link of a member's code on the public site. */
export const referralLink = (publicUrl: string, code: string) => `${publicUrl}/loyalty/?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}`;

/**
 * Records the new member as referred by the code's member, in the transaction that created
 * them (a refusal throws, and nothing is created). The referrer's account is locked (after the
 * new one: an older account, the order every change takes locks in), so two members joining at
 * once through one link count against the monthly limit one after the other.
 */
export async function recordReferral(
  tx: Executor,
  context: { timeZone: string; now: Date },
  referred: { id: string; email: string },
  code: string,
): Promise<void> {
  const [referrer] = await tx
    .select({
      id: loyaltyAccounts.id,
      email: loyaltyAccounts.email,
      provenAt: loyaltyAccounts.emailProvenAt,
      erasedAt: loyaltyAccounts.erasedAt,
    })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.referralCode, code.trim().toUpperCase()));
  if (!referrer || referrer.erasedAt || !referrer.provenAt) throw referralRefused('unknown');
  if (mailboxOf(referrer.email) === mailboxOf(referred.email)) throw referralRefused('self');
  // An existing member joining again under a plus-alias of their email (ana+new@x, ana@x a member) is not new.
  const mailbox = mailboxOf(referred.email);
  const [existing] = await tx
    .select({ id: loyaltyAccounts.id })
    .from(loyaltyAccounts)
    .where(
      and(
        sql`${loyaltyAccounts.id} <> ${referred.id}`,
        sql`${mailboxKey(loyaltyAccounts.email)} = ${mailbox}`,
        isNull(loyaltyAccounts.erasedAt),
      ),
    )
    .limit(1);
  if (existing) throw referralRefused('existing');
  const today = operatingDay(context.now, context.timeZone);
  const campaign = mostBonusPoints(await findRunningCampaigns(tx, ['referral'], today, today));
  if (!campaign) throw referralRefused('noCampaign');
  await lockAccount(tx, referrer.id);
  if (campaign.referralsPerMonth !== null) {
    const monthStart = `${parkDate(context.now, context.timeZone).slice(0, 7)}-01`;
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(loyaltyReferrals)
      .where(
        and(
          eq(loyaltyReferrals.referrerId, referrer.id),
          gte(loyaltyReferrals.createdAt, sql`(${monthStart}::date::timestamp at time zone ${context.timeZone})`),
        ),
      );
    if ((row?.n ?? 0) >= campaign.referralsPerMonth) throw referralRefused('capped');
  }
  await tx
    .insert(loyaltyReferrals)
    .values({ referredId: referred.id, referrerId: referrer.id, campaignId: campaign.id, createdAt: context.now });
}

/**
 * A referred member's first claim that earns points, in the claim's transaction (which holds
 * their account's lock): both members get the referral campaign's bonus, cut to its budget and
 * each one's cap, once (the referral row, locked, is marked earned). Nothing when the member has
 * no pending referral, or its campaign is no longer active; an erased referrer gets nothing.
 */
export async function completeReferral(tx: Executor, changes: LedgerChanges, referredId: string, now: Date): Promise<void> {
  const [pending] = await tx
    .select()
    .from(loyaltyReferrals)
    .where(and(eq(loyaltyReferrals.referredId, referredId), isNull(loyaltyReferrals.earnedAt)))
    .for('update');
  if (!pending) return;
  await tx.update(loyaltyReferrals).set({ earnedAt: now }).where(eq(loyaltyReferrals.referredId, referredId));
  const [campaign] = await tx
    .select()
    .from(loyaltyCampaigns)
    .where(and(eq(loyaltyCampaigns.id, pending.campaignId), eq(loyaltyCampaigns.active, true), isNull(loyaltyCampaigns.budgetSpentAt)));
  if (!campaign?.bonusPoints) return;
  const referrer = await lockAccount(tx, pending.referrerId);
  const rule = { ...campaign, kind: 'referral' as const, minimumTierPoints: null };
  const members = referrer && !referrer.erasedAt ? [referredId, pending.referrerId] : [referredId];
  const wanted = members.map((accountId) => ({ accountId, campaign: rule, points: campaign.bonusPoints! }));
  const cut = await cutToCapsAndBudgets(tx, now, wanted);
  const entries: NewLedgerEntry[] = wanted.flatMap((want, i) =>
    cut.points[i]! > 0
      ? [
          {
            accountId: want.accountId,
            points: cut.points[i]!,
            kind: 'bonus',
            reason: campaign.name,
            campaignId: campaign.id,
            causedBy: 'system',
          },
        ]
      : [],
  );
  await appendLedger(tx, changes, entries, { locked: true, events: cut.events });
}

/** The members who joined through the account's referral link, newest first (at most 100). */
export async function findReferred(db: Executor, accountId: string): Promise<ReferralSection['referred']> {
  const referred = await db
    .select({ firstName: loyaltyAccounts.firstName, joinedAt: loyaltyReferrals.createdAt, earnedAt: loyaltyReferrals.earnedAt })
    .from(loyaltyReferrals)
    .innerJoin(loyaltyAccounts, eq(loyaltyAccounts.id, loyaltyReferrals.referredId))
    .where(eq(loyaltyReferrals.referrerId, accountId))
    .orderBy(desc(loyaltyReferrals.createdAt))
    .limit(100);
  return referred.map((r) => ({ firstName: r.firstName, joinedAt: r.joinedAt.toISOString(), earned: r.earnedAt !== null }));
}
