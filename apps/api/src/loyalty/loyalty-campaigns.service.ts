// Campaigns on a claim: each claimed purchase earns, besides its own points, the bonus of the
// best single campaign that applies to it (its kind of purchase, its operating day within the
// campaign's dates, the member's tier), cut to what is left of the member's cap and of the
// campaign's budget. The bonus is a ledger entry of its own naming the campaign, written in the
// claim's transaction, and the purchase's reversal takes it back (reverseBonus).
// docs/loyalty-campaigns.md gives the rules and why.
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import { eventRow, type EventRow } from '../platform/events.ts';
import { operatingDay } from '../platform/park-time.ts';
import {
  findEarnedForTier,
  findMemberCampaignPoints,
  findRunningCampaigns,
  findStandingBonus,
  lockCampaignBudgets,
  markBudgetSpent,
  type CampaignRule,
} from './loyalty-campaigns.repo.ts';
import type { NewLedgerEntry } from './loyalty.repo.ts';

/** A purchase a claim just recorded, with what its earn entry gave. */
export interface EarnedPurchase {
  loyaltyOrderId: string;
  sourceType: string;
  sourceId: string;
  purchasedAt: Date;
  points: number;
}

/** The bonus entries of a claim and the events that come with them (a budget spent). */
export interface Bonuses {
  entries: NewLedgerEntry[];
  events: EventRow[];
}

const APPLIES_TO: Record<LoyaltyOrderType, 'tickets' | 'foodAndBeverage' | 'hotel'> = {
  ticket: 'tickets',
  'food-and-beverage': 'foodAndBeverage',
  hotel: 'hotel',
};

/**
 * What a campaign adds to an earn of `earned` points: a multiplier the earn times the factor
 * less the earn (2: as much again), rounded down, in hundredths so that no binary fraction
 * enters; a fixed bonus its points.
 */
export function campaignBonus(campaign: Pick<CampaignRule, 'kind' | 'multiplier' | 'bonusPoints'>, earned: number): number {
  if (campaign.kind === 'multiplier') {
    const hundredths = Math.round((campaign.multiplier ?? 1) * 100);
    return Math.floor((earned * (hundredths - 100)) / 100);
  }
  return campaign.bonusPoints ?? 0;
}

/** The campaign applies to a purchase of this kind made on this operating day by a member with these points earned in the tier window. */
const appliesTo = (campaign: CampaignRule, sourceType: string, day: string, earnedForTier: number) =>
  campaign[APPLIES_TO[sourceType as LoyaltyOrderType]] === true &&
  campaign.validFrom <= day &&
  day <= campaign.validTo &&
  (campaign.minimumTierPoints === null || earnedForTier >= campaign.minimumTierPoints);

/** The best single campaign for a purchase and its bonus (the first of equal ones); null when none gives anything. */
function bestCampaign(campaigns: CampaignRule[], purchase: EarnedPurchase, day: string, earnedForTier: number) {
  let best: { campaign: CampaignRule; points: number } | null = null;
  for (const campaign of campaigns) {
    if (!appliesTo(campaign, purchase.sourceType, day, earnedForTier)) continue;
    const points = campaignBonus(campaign, purchase.points);
    if (points > (best?.points ?? 0)) best = { campaign, points };
  }
  return best;
}

/**
 * The bonus entries the claimed purchases earn, in the claim's transaction (which holds the
 * account's lock, and has written the purchases' earns: the tier counts them). A campaign with a
 * budget is locked (after the account, in id order) while its bonuses are cut to what is left,
 * so concurrent claims never give past it; the one that spends it marks it spent and tells the
 * operator (loyalty.campaign_budget_spent). A member's cap needs no lock of its own: their
 * account's lock orders their claims.
 */
export async function campaignBonuses(
  tx: Executor,
  context: { timeZone: string; now: Date },
  accountId: string,
  purchases: EarnedPurchase[],
  by: Pick<NewLedgerEntry, 'causedBy' | 'staffMember'>,
): Promise<Bonuses> {
  const earning = purchases.filter((p) => p.points > 0);
  if (earning.length === 0) return { entries: [], events: [] };
  const days = earning.map((p) => operatingDay(p.purchasedAt, context.timeZone));
  const sorted = [...days].sort();
  const campaigns = await findRunningCampaigns(tx, sorted[0]!, sorted.at(-1)!);
  if (campaigns.length === 0) return { entries: [], events: [] };
  const earnedForTier = campaigns.some((c) => c.minimumTierPoints !== null) ? await findEarnedForTier(tx, accountId, context.now) : 0;
  const picks = earning.flatMap((purchase, i) => {
    const best = bestCampaign(campaigns, purchase, days[i]!, earnedForTier);
    return best ? [{ purchase, ...best }] : [];
  });
  const picked = [...new Map(picks.map((pick) => [pick.campaign.id, pick.campaign])).values()];
  const budgets = await lockCampaignBudgets(
    tx,
    picked.filter((c) => c.budget !== null).map((c) => c.id),
  );
  const memberGiven = await findMemberCampaignPoints(
    tx,
    accountId,
    picked.filter((c) => c.capPerMember !== null).map((c) => c.id),
  );
  const bonuses: Bonuses = { entries: [], events: [] };
  for (const { purchase, campaign, points: wanted } of picks) {
    const budget = budgets.get(campaign.id);
    const given = memberGiven.get(campaign.id) ?? 0;
    let points = wanted;
    if (campaign.capPerMember !== null) points = Math.min(points, campaign.capPerMember - given);
    if (campaign.budget !== null) points = !budget || budget.spent ? 0 : Math.min(points, campaign.budget - budget.given);
    if (points <= 0) continue;
    memberGiven.set(campaign.id, given + points);
    if (budget && campaign.budget !== null) {
      budget.given += points;
      if (budget.given >= campaign.budget) {
        budget.spent = true;
        await markBudgetSpent(tx, campaign.id, context.now);
        bonuses.events.push(
          eventRow('loyalty.campaign_budget_spent', `campaign:${campaign.id}`, {
            campaignId: campaign.id,
            name: campaign.name,
            budget: campaign.budget,
            awarded: budget.given,
          }),
        );
      }
    }
    bonuses.entries.push({
      accountId,
      points,
      kind: 'bonus',
      reason: campaign.name,
      loyaltyOrderId: purchase.loyaltyOrderId,
      campaignId: campaign.id,
      sourceType: purchase.sourceType,
      sourceId: purchase.sourceId,
      causedBy: by.causedBy,
      staffMember: by.staffMember ?? null,
    });
  }
  return bonuses;
}

/**
 * The entry that takes back a claim's bonus with the claim's reversal (the same cause), or
 * null when the claim earned none. The budget keeps what the bonus used: a campaign's budget is
 * what it gave (docs/loyalty-campaigns.md).
 */
export async function bonusReversalOf(tx: Executor, reversal: NewLedgerEntry): Promise<NewLedgerEntry | null> {
  const bonus = await findStandingBonus(tx, reversal.loyaltyOrderId!);
  if (!bonus) return null;
  return { ...reversal, points: -bonus.points, kind: 'bonus-reversal', campaignId: bonus.campaignId };
}
