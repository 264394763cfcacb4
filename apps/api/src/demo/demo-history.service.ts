// The demo's 90 days of history (demo-plan.service.ts), carried out through the product's own
// calls, each at its planned past time (the loyalty core's LedgerChanges.at): the tiers and
// rewards as staff create them in their tabs, the purchases through the integration ingest,
// accounts staff create (proven), staff claims, staff redemptions, the expiry job's pass at
// each day's end, the Dashboard's lookup counts, a webhook endpoint with a test message, and the
// member cards in Apple and Google wallets with their deliveries (demo-wallet.service.ts). In the
// demo load's transaction.
import {
  loyaltyCampaigns as campaignsTab,
  loyaltyRewards as rewardsTab,
  loyaltyTiers as tiersTab,
} from '@boardwalk/contract/staff-loyalty-tabs';
import type { Db, Executor } from '@boardwalk/db/client';
import type { FastifyInstance } from 'fastify';
import { ingestRecords } from '../integrations/ingest.service.ts';
import { settleChallenges } from '../loyalty/loyalty-challenges.service.ts';
import { expireLots, publishCardsChangedByTime } from '../loyalty/loyalty-expiry.service.ts';
import { LOYALTY_CHALLENGE_ACTIVITY } from '../loyalty/loyalty.topics.ts';
import type { LoyaltyCore } from '../loyalty/loyalty.service.ts';
import { createActivityCounts } from '../platform/activity-counts.ts';
import { AppError } from '../platform/errors.ts';
import { operatingDayBounds, shiftDate } from '../platform/park-time.ts';
import type { Jobs } from '../platform/jobs/jobs.plugin.ts';
import type { StaffIdentity } from '../staff/auth/auth.service.ts';
import { staffCreate } from '../staff/loyalty/staff-loyalty-accounts.service.ts';
import { staffClaimHotel, staffClaimPurchase, staffClaimTickets } from '../staff/loyalty/staff-loyalty-claims.service.ts';
import { staffRedeem } from '../staff/loyalty/staff-loyalty-points.service.ts';
import { createResource, prepareResource } from '../staff/resources/resources.service.ts';
import { createWebhookEndpoint, sendTestMessage } from '../staff/webhooks/webhooks.service.ts';
import { DEMO_CAMPAIGNS, DEMO_REWARDS, DEMO_TIERS, planHistory, type PlannedMember } from './demo-plan.service.ts';
import { createWalletHistory, type WalletHistoryDeps, type WalletReport } from './demo-wallet.service.ts';

/** The staff member the demo's history names (audit entries, claims, redemptions). */
export const DEMO_STAFF: StaffIdentity = {
  teamMemberGuid: '00000000-0000-4000-8000-00000000de70',
  username: 'demo.guestservices',
  accessLevel: 1000,
  sessionGuid: '00000000-0000-4000-8000-00000000de70',
};

/** The demo's webhook endpoint (its messages fail: nothing answers there). */
export const DEMO_WEBHOOK_URL = 'https://crm.example.com/boardwalk/webhooks';

export interface HistoryDeps extends Omit<WalletHistoryDeps, 'db'> {
  jobs: Pick<Jobs, 'insert'>;
}

/** What the history is written with, from the app. */
export const historyDepsOf = (app: FastifyInstance): Omit<HistoryDeps, 'changes'> => ({
  jobs: app.jobs,
  keys: app.keys,
  config: app.config,
  tickets: app.tickets,
  appleWallet: app.appleWallet,
  googleWallet: app.googleWallet,
  log: app.log,
});

export interface HistoryReport {
  tiers: number;
  rewards: number;
  campaigns: number;
  purchases: { orders: number; checks: number; reservations: number };
  members: number;
  claims: number;
  redemptions: number;
  /** Redemptions the product refused (not enough points, tier or limit): the demo moves on. */
  refused: number;
  expiredLots: number;
  lookups: number;
  webhookEndpoints: number;
  /** The member cards in the wallets, and the deliveries in each state. */
  wallet: WalletReport;
}

/** Carries out the plan for the days up to `today` in `tx`; nothing planned after `now`. */
export async function loadHistory(tx: Executor, deps: HistoryDeps, today: string, now: Date): Promise<HistoryReport> {
  const db = tx as unknown as Db;
  const timeZone = deps.config.parkTimezone;
  const plan = planHistory(today, timeZone, now);
  // The member cards follow each step: the history's changes go through the wallet's side.
  const wallet = createWalletHistory({ ...deps, db: tx }, now);
  const { changes } = wallet;
  // The members whose claims count toward a challenge: settled after each step, at its time (as the queue would, moments later).
  const challenged = new Set<string>();
  const publish: typeof changes.publish = async (tx, topic, ids, system) => {
    if (topic === LOYALTY_CHALLENGE_ACTIVITY) for (const id of ids) challenged.add(id);
    else await changes.publish(tx, topic, ids, system);
  };
  const coreAt = (at?: Date): LoyaltyCore => ({
    db,
    config: deps.config,
    changes: { publish, pointsExpireMonths: deps.config.loyalty.pointsExpireMonths, at },
  });
  const report: Omit<HistoryReport, 'wallet'> = {
    tiers: 0,
    rewards: 0,
    campaigns: 0,
    purchases: { orders: 0, checks: 0, reservations: 0 },
    members: 0,
    claims: 0,
    redemptions: 0,
    refused: 0,
    expiredLots: 0,
    lookups: 0,
    webhookEndpoints: 0,
  };

  // The club as staff set it up in the Loyalty Tiers and Loyalty Rewards tabs.
  const resources = { db, changes, timeZone };
  for (const tier of DEMO_TIERS) {
    await createResource(
      resources,
      prepareResource(tiersTab),
      { loyaltyTierName: tier.name, loyaltyTierNameEs: tier.nameEs, loyaltyTierPointsToReach: tier.pointsToReach, loyaltyTierActive: true },
      DEMO_STAFF,
    );
    report.tiers++;
  }
  const rewardIds: string[] = [];
  for (const reward of DEMO_REWARDS) {
    const row = await createResource(
      resources,
      prepareResource(rewardsTab),
      {
        loyaltyRewardName: reward.name,
        loyaltyRewardDescription: reward.description,
        loyaltyRewardNameEs: reward.nameEs,
        loyaltyRewardDescriptionEs: reward.descriptionEs,
        loyaltyRewardPointsCost: reward.pointsCost,
        loyaltyRewardActive: true,
        loyaltyRewardMinimumTier: reward.minimumTier,
        loyaltyRewardLimitPerMember: reward.limitPerMember,
      },
      DEMO_STAFF,
    );
    rewardIds.push(String(row.loyaltyRewardID));
    report.rewards++;
  }

  // Its campaigns, as staff set them up in the Loyalty Campaigns tab.
  for (const campaign of DEMO_CAMPAIGNS) {
    await createResource(
      resources,
      prepareResource(campaignsTab),
      {
        loyaltyCampaignActive: true,
        ...campaign.fields,
        loyaltyCampaignFrom: shiftDate(today, campaign.from),
        loyaltyCampaignTo: shiftDate(today, campaign.to),
      },
      DEMO_STAFF,
    );
    report.campaigns++;
  }

  // The operator's CRM listens to the club's events.
  const webhooks = { db, jobs: deps.jobs, keys: deps.keys, allowPrivateNetworks: false };
  const { endpoint } = await createWebhookEndpoint(webhooks, DEMO_STAFF, {
    url: DEMO_WEBHOOK_URL,
    description: 'CRM (demo): member and reward events',
    eventTypes: ['loyalty.member_created', 'loyalty.tier_changed', 'loyalty.reward_redeemed'],
    active: true,
  });
  await sendTestMessage(webhooks, DEMO_STAFF, endpoint.id);
  report.webhookEndpoints++;

  // The purchases, as the ticketing, point of sale and hotel feeds send them.
  const ingested = await ingestRecords({ db: tx, changes: deps.changes, data: plan.purchases });
  if (ingested.errors.length > 0) {
    throw new Error(`The demo history is not valid:\n${ingested.errors.map((e) => `${e.record} ${e.field}: ${e.message}`).join('\n')}`);
  }
  report.purchases = { orders: ingested.orders.created, checks: ingested.checks.created, reservations: ingested.reservations.created };

  const accounts = new Map<number, string>();
  const userID = (member: PlannedMember) => accounts.get(member.key)!;
  /** What the demo knows of each member from the answers: balance, points earned, rewards redeemed. */
  const standings = new Map<number, { balance: number; earned: number; redeemed: Map<number, number> }>();
  const standingOf = (member: PlannedMember) => {
    let standing = standings.get(member.key);
    if (!standing) standings.set(member.key, (standing = { balance: 0, earned: 0, redeemed: new Map() }));
    return standing;
  };
  for (const step of plan.steps) {
    const ctx = { db, core: coreAt(step.at) };
    switch (step.kind) {
      case 'join': {
        const { email, firstName, lastName } = step.member;
        accounts.set(step.member.key, await staffCreate(ctx, DEMO_STAFF, { email, firstName, lastName }));
        report.members++;
        break;
      }
      case 'claim': {
        const who = { userID: userID(step.member), email: step.member.email };
        const claimed =
          step.type === 'ticket'
            ? await staffClaimTickets(ctx, DEMO_STAFF, { ...who, orderId: step.reference })
            : step.type === 'hotel'
              ? await staffClaimHotel(ctx, DEMO_STAFF, { ...who, reservationNumber: step.reference })
              : await staffClaimPurchase(ctx, DEMO_STAFF, { ...who, checkNumber: step.reference, checkID: step.checkId });
        if (Array.isArray(claimed)) throw new Error(`The demo check ${step.reference} is not unique`);
        const standing = standingOf(step.member);
        standing.balance = claimed.balance;
        standing.earned += claimed.pointsEarned;
        report.claims++;
        break;
      }
      case 'redeem': {
        // Only what the member looks able to redeem is tried (the product still decides).
        const standing = standingOf(step.member);
        const reward = DEMO_REWARDS[step.reward]!;
        const tier = DEMO_TIERS.find((t) => t.name === reward.minimumTier);
        const times = standing.redeemed.get(step.reward) ?? 0;
        const affordable = standing.balance >= reward.pointsCost && standing.earned >= (tier?.pointsToReach ?? 0);
        if (!affordable || (reward.limitPerMember !== null && times >= reward.limitPerMember)) break;
        try {
          const done = await staffRedeem(ctx, DEMO_STAFF, {
            userID: userID(step.member),
            rewardId: rewardIds[step.reward]!,
            idempotencyKey: step.key,
          });
          standing.balance = done.balance;
          standing.redeemed.set(step.reward, times + 1);
          report.redemptions++;
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
          report.refused++;
        }
        break;
      }
      case 'expire':
        // The expiry job's pass: the lots whose date came, then the cards time alone changed.
        report.expiredLots += await expireLots(coreAt(step.at), step.at);
        await publishCardsChangedByTime(coreAt(step.at), step.at);
        break;
      case 'card':
        await wallet.addCard(userID(step.member), step.member.email, step.card, step.at);
        break;
      case 'card-removed':
        await wallet.removeCard(userID(step.member), step.card, step.at);
        break;
    }
    for (const accountId of challenged) await settleChallenges(coreAt(step.at), accountId, step.at);
    challenged.clear();
    await wallet.follow(step.at);
  }

  // The guest lookups of each day, as the lookup and share routes count them.
  const activity = createActivityCounts(tx, timeZone);
  for (const { day, found, failed, throttled, shared } of plan.lookups) {
    const noon = operatingDayBounds(day, timeZone).start.getTime() + 10 * 3600_000;
    const at = new Date(Math.min(now.getTime(), noon));
    const counts = [
      ['lookup-found', found],
      ['lookup-failed', failed],
      ['lookup-throttled', throttled],
      ['share-link-opened', shared],
    ] as const;
    for (const [what, n] of counts) for (let i = 0; i < n; i++) activity.count(what, at);
    report.lookups += found + failed + throttled;
  }
  await activity.flush();
  return { ...report, wallet: await wallet.report() };
}
