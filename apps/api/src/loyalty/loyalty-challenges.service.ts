// Challenges: a goal counted from the member's activity within a campaign's dates (distinct days
// with a claimed purchase or an attraction visit, distinct food outlets, hotel nights). Reaching
// it gives the campaign's bonus once, cut to its budget and the member's cap; a reversal that
// takes the member back below the goal takes the bonus back (the challenge may then be completed
// again). The member's account changes and the gate's visits are settled by a queue
// (loyalty-challenges.jobs.ts), each under the account's lock; docs/loyalty-campaigns.md.
import type { Language } from '@boardwalk/contract/i18n/languages';
import { textIn } from '@boardwalk/contract/i18n/staff-texts';
import type { MemberChallenge as TillChallenge } from '@boardwalk/contract/loyalty-integration';
import type { StatementChallenge } from '@boardwalk/contract/loyalty-statement';
import type { Executor } from '@boardwalk/db/client';
import { operatingDay, shiftDate } from '../platform/park-time.ts';
import {
  anyCompletionOf,
  deleteCompletion,
  findChallengeProgress,
  findChallengesOn,
  findCompletions,
  insertCompletions,
  setCompletionPoints,
} from './loyalty-challenges.repo.ts';
import { findEarnedForTiers, findRunningCampaigns } from './loyalty-campaigns.repo.ts';
import { cutToCapsAndBudgets } from './loyalty-campaigns.service.ts';
import { lockAccount, type NewLedgerEntry } from './loyalty.repo.ts';
import { appendLedger, type LoyaltyCore } from './loyalty.service.ts';

/** The reason a take-back records: the member no longer meets the goal (a claim that counted was reversed). */
export const CHALLENGE_TAKEN_BACK = 'challenge no longer met';

/**
 * Settles the member's challenges in a transaction of its own, under their account's lock: the
 * challenges whose goal they now meet and had not completed give their bonus (a completion row
 * each, whose primary key keeps it once whatever runs meet it); the completed ones whose goal
 * they no longer meet are taken back. A challenge counts purchases by their own day, so those
 * that ended within the claim period are settled too. Answers what changed.
 */
export async function settleChallenges(
  core: Pick<LoyaltyCore, 'db' | 'changes' | 'config'>,
  accountId: string,
  now: Date,
): Promise<{ completed: number; takenBack: number }> {
  const { parkTimezone: timeZone, loyalty } = core.config;
  const today = operatingDay(now, timeZone);
  const running = await findRunningCampaigns(core.db, ['challenge'], shiftDate(today, -loyalty.claimDays), today);
  const none = { completed: 0, takenBack: 0 };
  if (running.length === 0 && !(await anyCompletionOf(core.db, accountId))) return none;
  return core.db.transaction(async (tx) => {
    const account = await lockAccount(tx, accountId);
    if (!account || account.erasedAt) return none;
    const completions = await findCompletions(tx, accountId);
    const done = new Set(completions.map((c) => c.id));
    const earned = running.some((c) => c.minimumTierPoints !== null)
      ? ((await findEarnedForTiers(tx, [accountId], now)).get(accountId) ?? 0)
      : 0;
    const open = running.filter(
      (c) => !done.has(c.id) && c.goal !== null && (c.minimumTierPoints === null || earned >= c.minimumTierPoints),
    );
    // A completion is weighed again only after a reversal of the member's (retention dropping old
    // visits, or staff editing the challenge, takes nothing back).
    const recheck = completions.filter((c) => c.reversedSince);
    const progress = await findChallengeProgress(tx, accountId, [...open, ...recheck], timeZone);
    const reached = (c: { id: string; goalCount: number | null }) => (progress.get(c.id) ?? 0) >= (c.goalCount ?? 1);

    const takeBacks: NewLedgerEntry[] = [];
    const lost = recheck.filter((c) => !reached(c));
    for (const completion of lost) {
      await deleteCompletion(tx, accountId, completion.id);
      if (completion.points > 0) {
        takeBacks.push({
          accountId,
          points: -completion.points,
          kind: 'bonus-reversal',
          reason: CHALLENGE_TAKEN_BACK,
          campaignId: completion.id,
          causedBy: 'system',
        });
      }
    }
    await appendLedger(tx, core.changes, takeBacks, { locked: true });

    const wanted = open.filter(reached).map((campaign) => ({ accountId, campaign, points: campaign.bonusPoints ?? 0 }));
    const recorded = await insertCompletions(
      tx,
      accountId,
      wanted.map((w) => ({ id: w.campaign.id, points: w.points })),
      now,
    );
    const mine = wanted.filter((w) => recorded.has(w.campaign.id));
    const cut = await cutToCapsAndBudgets(tx, now, mine);
    const bonuses: NewLedgerEntry[] = [];
    for (const [i, want] of mine.entries()) {
      const points = cut.points[i]!;
      if (points !== want.points) await setCompletionPoints(tx, accountId, want.campaign.id, points);
      if (points > 0) {
        bonuses.push({ accountId, points, kind: 'bonus', reason: want.campaign.name, campaignId: want.campaign.id, causedBy: 'system' });
      }
    }
    await appendLedger(tx, core.changes, bonuses, { locked: true, events: cut.events });
    return { completed: mine.length, takenBack: lost.length };
  });
}

/** A challenge as the member sees it: its name in each language, and their progress. */
export interface MemberChallenge extends Omit<StatementChallenge, 'name'> {
  campaignId: string;
  names: { name: string; nameEs: string | null };
}

/**
 * The challenges running today that the member may see (their tier reaches it, or they completed
 * it; one whose budget is spent only when they completed it), with their progress, oldest first:
 * what the statement and the wallet card show.
 */
export async function memberChallenges(
  db: Executor,
  member: { id: string; earnedForTier: number },
  context: { timeZone: string; now: Date },
): Promise<MemberChallenge[]> {
  const today = operatingDay(context.now, context.timeZone);
  const rows = (await findChallengesOn(db, member.id, today)).filter(
    (c) => c.goal !== null && (c.completedPoints !== null || c.minimumTierPoints === null || member.earnedForTier >= c.minimumTierPoints),
  );
  const progress = await findChallengeProgress(db, member.id, rows, context.timeZone);
  return rows.map((c) => ({
    campaignId: c.id,
    names: { name: c.name, nameEs: c.nameEs },
    goal: c.goal!,
    goalCount: c.goalCount,
    progress: Math.min(progress.get(c.id) ?? 0, c.goalCount),
    bonusPoints: c.completedPoints ?? c.bonusPoints,
    completed: c.completedPoints !== null,
    validTo: c.validTo,
  }));
}

/** A member challenge as the tills and staff read it: in English, named by its campaign. */
export const staffChallenge = (challenge: MemberChallenge): TillChallenge => ({
  ...challengeIn(challenge, 'en'),
  campaignId: challenge.campaignId,
});

/** A member challenge in the page's language. */
export const challengeIn = ({ campaignId: _, names, ...challenge }: MemberChallenge, language: Language): StatementChallenge => ({
  ...challenge,
  name: textIn(names, 'name', language)!,
});
