// The loyalty club's job, run when this process runs workers (DELIVERY_WORKERS): a purchase a
// feed resent or dropped (purchase-changed) has its invalid claims reversed.
import fp from 'fastify-plugin';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { QUEUES } from '../../platform/jobs/job-queue.ts';
import { reverseInvalidClaims } from './loyalty.service.ts';

export const loyaltyReversalsPlugin = fp(
  async (app) => {
    if (!app.config.deliveries.workers) return;
    await app.jobs.work<{ type: LoyaltyOrderType; sourceId: string }>(QUEUES.purchaseChanged, { batchSize: 20 }, async ({ data }) => {
      await reverseInvalidClaims({ db: app.database.db, ticketChanges: app.ticketChanges }, data.type, data.sourceId);
    });
  },
  { name: 'loyalty-reversals', dependencies: ['jobs', 'ticket-changes'] },
);
