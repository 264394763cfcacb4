// Campaigns on a claim: each claimed purchase earns, besides its own points, the bonus of the
// best single campaign that applies to it (its kind of purchase, its operating day within the
// campaign's dates, the member's tier), cut to what is left of the member's cap and of the
// campaign's budget. The bonus is a ledger entry of its own naming the campaign, written in the
// claim's transaction, and the purchase's reversal takes it back (reverseBonus).
// docs/loyalty-campaigns.md gives the rules and why.
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { MemberCampaign } from '@boardwalk/contract/loyalty-integration';
import type { Executor } from '@boardwalk/db/client';
import { eventRow, recordEventRows, type EventRow } from '../platform/events.ts';
import type { ClaimBonus } from './loyalty-credits.repo.ts';
import { operatingDay } from '../platform/park-time.ts';
import {
  findCampaignFigures,
  findEarnedForTiers,
  findMembersCampaignPoints,
  findRunningCampaigns,
  CLAIM_CAMPAIGNS,
  findStandingBonus,
  lockCampaignBudgets,
  markBudgetSpent,
  type CampaignRule,
} from './loyalty-campaigns.repo.ts';
import type { NewLedgerEntry } from './loyalty.repo.ts';

/** A purchase a claim is about to record, with what its earn entry gives. */
export interface EarningPurchase {
  sourceType: string;
  purchasedAt: Date;
  points: number;
}

/**
 * The bonus of each purchase of a claim (null: none), in order, and the events that come with
 * them (a budget spent); `challenged`: a challenge runs on a purchase's day (the claim may count
 * toward it: the challenges queue settles it after the claim).
 */
export interface Bonuses {
  of: (ClaimBonus | null)[];
  events: EventRow[];
  challenged: boolean;
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
function bestCampaign(campaigns: CampaignRule[], purchase: EarningPurchase, day: string, earnedForTier: number) {
  let best: { campaign: CampaignRule; points: number } | null = null;
  for (const campaign of campaigns) {
    if (!appliesTo(campaign, purchase.sourceType, day, earnedForTier)) continue;
    const points = campaignBonus(campaign, purchase.points);
    if (points > (best?.points ?? 0)) best = { campaign, points };
  }
  return best;
}

/**
 * The campaign giving the most Bonus Points (equal: the oldest) of those whose minimum tier a
 * member with these points earned in the tier window reaches (undefined: any campaign), a
 * birthday's or a referral's; null when none gives any.
 */
export function mostBonusPoints(campaigns: CampaignRule[], earnedForTier?: number): CampaignRule | null {
  let best: CampaignRule | null = null;
  for (const campaign of campaigns) {
    if (earnedForTier !== undefined && campaign.minimumTierPoints !== null && earnedForTier < campaign.minimumTierPoints) continue;
    if ((campaign.bonusPoints ?? 0) > (best?.bonusPoints ?? 0)) best = campaign;
  }
  return best;
}

/**
 * The bonus each purchase of a claim earns, in the claim's transaction, before the claim's write
 * (which writes them after their earns): the best campaign's, cut to the member's cap and the
 * campaign's budget (cutToCapsAndBudgets). The transaction holds the account's lock; the tier
 * counts the claim's own earns.
 */
export async function campaignBonuses(
  tx: Executor,
  context: { timeZone: string; now: Date },
  accountId: string,
  purchases: EarningPurchase[],
): Promise<Bonuses> {
  const none: Bonuses = { of: purchases.map(() => null), events: [], challenged: false };
  const days = purchases.map((p) => operatingDay(p.purchasedAt, context.timeZone));
  const earning = days.filter((_, i) => purchases[i]!.points > 0).sort();
  if (earning.length === 0) return none;
  // A challenge running on any day from the first purchase's to today may count the claim (a hotel stay's nights, a ticket's later visits).
  const today = operatingDay(context.now, context.timeZone);
  const last = earning.at(-1)! > today ? earning.at(-1)! : today;
  const running = await findRunningCampaigns(tx, [...CLAIM_CAMPAIGNS, 'challenge'], earning[0]!, last);
  const challenged = running.some((c) => c.kind === 'challenge');
  const campaigns = running.filter((c) => c.kind !== 'challenge');
  if (campaigns.length === 0) return { ...none, challenged };
  const claimEarns = purchases.reduce((sum, p) => sum + p.points, 0);
  const earnedForTier = campaigns.some((c) => c.minimumTierPoints !== null)
    ? ((await findEarnedForTiers(tx, [accountId], context.now)).get(accountId) ?? 0) + claimEarns
    : 0;
  const picks = purchases.map((purchase, i) => (purchase.points > 0 ? bestCampaign(campaigns, purchase, days[i]!, earnedForTier) : null));
  const cut = await cutToCapsAndBudgets(
    tx,
    context.now,
    picks.map((pick) => pick && { accountId, ...pick }),
  );
  return {
    of: picks.map((pick, i) =>
      pick && cut.points[i]! > 0 ? { points: cut.points[i]!, campaignId: pick.campaign.id, campaignName: pick.campaign.name } : null,
    ),
    events: cut.events,
    challenged,
  };
}

/** A bonus a campaign would give a member, before its cap and its budget. */
interface WantedBonus {
  accountId: string;
  campaign: CampaignRule;
  points: number;
}

/**
 * Cuts each wanted bonus (in order) to what is left of the member's cap and of the campaign's
 * budget, in the caller's transaction, which holds the lock of every member named. A campaign
 * with a budget is locked (after the accounts, in id order: the order every change takes them
 * in) until the transaction commits, so concurrent changes never give past it; the one that
 * spends it marks it spent and tells the operator (loyalty.campaign_budget_spent). A member's cap
 * needs no lock of its own: their account's lock orders their changes.
 */
export async function cutToCapsAndBudgets(
  tx: Executor,
  now: Date,
  wanted: (WantedBonus | null)[],
): Promise<{ points: number[]; events: EventRow[] }> {
  const wants = wanted.filter((w) => w !== null);
  const campaigns = [...new Map(wants.map((w) => [w.campaign.id, w.campaign])).values()];
  const budgets = await lockCampaignBudgets(
    tx,
    campaigns.filter((c) => c.budget !== null).map((c) => c.id),
  );
  const memberGiven = await findMembersCampaignPoints(
    tx,
    [...new Set(wants.map((w) => w.accountId))],
    campaigns.filter((c) => c.capPerMember !== null).map((c) => c.id),
  );
  const events: EventRow[] = [];
  const points: number[] = [];
  for (const want of wanted) {
    if (!want) {
      points.push(0);
      continue;
    }
    const { campaign } = want;
    const budget = budgets.get(campaign.id);
    const key = `${want.accountId} ${campaign.id}`;
    const given = memberGiven.get(key) ?? 0;
    let cut = want.points;
    if (campaign.capPerMember !== null) cut = Math.min(cut, campaign.capPerMember - given);
    // The budget as locked: a staff edit may have changed it since the campaign was read (gone: nothing).
    if (budget?.spent || (campaign.budget !== null && !budget)) cut = 0;
    else if (budget && budget.budget !== null) cut = Math.min(cut, budget.budget - budget.given);
    cut = Math.max(cut, 0);
    points.push(cut);
    if (cut === 0) continue;
    memberGiven.set(key, given + cut);
    if (budget && budget.budget !== null) {
      budget.given += cut;
      if (budget.given >= budget.budget) {
        budget.spent = true;
        await markBudgetSpent(tx, campaign.id, now);
        events.push(
          eventRow('loyalty.campaign_budget_spent', `campaign:${campaign.id}`, {
            campaignId: campaign.id,
            name: campaign.name,
            budget: budget.budget,
            awarded: budget.given,
          }),
        );
      }
    }
  }
  return { points, events };
}

/**
 * A campaign's budget edited by staff, in the edit's transaction (whose update holds the
 * campaign's lock): spent when what it gave reaches the new budget (and the operator told, as
 * when a claim spends it), running again when the new budget leaves room or there is none.
 * Answers when it is spent now (null: not spent).
 */
export async function budgetEdited(
  tx: Executor,
  campaign: { id: string; name: string; budget: number | null; spentAt: Date | null },
  now: Date,
): Promise<Date | null> {
  const given = (await findCampaignFigures(tx, [campaign.id])).get(campaign.id)?.given ?? 0;
  const spent = campaign.budget !== null && given >= campaign.budget;
  if (spent === (campaign.spentAt !== null)) return campaign.spentAt;
  await markBudgetSpent(tx, campaign.id, spent ? now : null);
  if (spent) {
    const data = { campaignId: campaign.id, name: campaign.name, budget: campaign.budget!, awarded: given };
    await recordEventRows(tx, [eventRow('loyalty.campaign_budget_spent', `campaign:${campaign.id}`, data)]);
  }
  return spent ? now : null;
}

/**
 * The campaigns running on today's operating day that apply to a member with these points
 * earned in the tier window: what the tills and staff tell the member.
 */
export async function campaignsForMember(
  db: Executor,
  earnedForTier: number,
  context: { timeZone: string; now: Date },
): Promise<MemberCampaign[]> {
  const today = operatingDay(context.now, context.timeZone);
  const running = await findRunningCampaigns(db, CLAIM_CAMPAIGNS, today, today);
  return running
    .filter((c) => c.minimumTierPoints === null || earnedForTier >= c.minimumTierPoints)
    .map((c) => ({
      campaignId: c.id,
      name: c.name,
      kind: c.kind as MemberCampaign['kind'],
      multiplier: c.kind === 'multiplier' ? c.multiplier : null,
      bonusPoints: c.kind === 'bonus' ? c.bonusPoints : null,
      appliesTo: (Object.keys(APPLIES_TO) as LoyaltyOrderType[]).filter((type) => c[APPLIES_TO[type]]),
      validTo: c.validTo,
    }));
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
