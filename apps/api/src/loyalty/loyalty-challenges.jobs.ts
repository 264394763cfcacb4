// The challenges queue: a member's claim counted toward a running challenge, their account
// changed (a reversal, any ledger entry) or a ticket they claimed was used at an attraction, so their challenges are settled (loyalty-challenges.service.ts)
// a moment later: the changes within the coalescing window are one job per member.
import fp from 'fastify-plugin';
import { ATTRACTION_VISITED } from '../integrations/gate/gate.topics.ts';
import { findTicketClaimant } from './loyalty-challenges.repo.ts';
import { settleChallenges } from './loyalty-challenges.service.ts';
import { LOYALTY_ACCOUNT_CHANGED, LOYALTY_CHALLENGE_ACTIVITY } from './loyalty.topics.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

export const LOYALTY_CHALLENGES_QUEUE = 'loyalty-challenges';

export const loyaltyChallengeJobs = fp(
  async (app) => {
    const core = loyaltyCoreOf(app);
    await app.jobs.declare<{ accountId?: string; barcode?: string }>({
      name: LOYALTY_CHALLENGES_QUEUE,
      policy: 'stately',
      batchSize: 20,
      subscribes: [
        { topic: LOYALTY_ACCOUNT_CHANGED, data: (accountId) => ({ accountId }), coalesce: true },
        { topic: LOYALTY_CHALLENGE_ACTIVITY, data: (accountId) => ({ accountId }), coalesce: true },
        { topic: ATTRACTION_VISITED, data: (barcode) => ({ barcode }), singletonKey: (barcode) => `visit:${barcode}`, coalesce: true },
      ],
      handler: async ({ data }) => {
        const accountId = data.accountId ?? (data.barcode ? await findTicketClaimant(core.db, data.barcode) : null);
        if (!accountId) return;
        await settleChallenges(core, accountId, new Date());
        // A visit moves the progress a member card shows, with no ledger entry of its own to publish it.
        if (data.barcode) await core.db.transaction((tx) => core.changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, [accountId]));
      },
    });
  },
  { name: 'loyalty-challenges', dependencies: ['jobs'] },
);
