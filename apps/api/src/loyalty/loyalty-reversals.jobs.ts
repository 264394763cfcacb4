// The loyalty club's queue: a purchase a feed resent or dropped (purchase-changed) has its
// invalid claims reversed, recording the system whose feed call changed it (jobs enqueued
// before the system was carried have none).
import fp from 'fastify-plugin';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { CHECK_REFUNDED } from '../integrations/pos/check.topics.ts';
import { RESERVATION_CANCELLED } from '../integrations/hotel/reservation.topics.ts';
import { TICKET_WITHDRAWN } from '../integrations/ticketing/ticket.topics.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

/** A feed's topic as this queue's jobs: the purchase type and its id. */
const purchasesOf = (topic: string, type: LoyaltyOrderType) => ({
  topic,
  data: (sourceId: string, system: string | null) => ({ type, sourceId, system }),
  singletonKey: (sourceId: string) => `${type}:${sourceId}`,
});

export const loyaltyReversalsJobs = fp(
  async (app) => {
    const core = loyaltyCoreOf(app);
    await app.jobs.declare<{ type: LoyaltyOrderType; sourceId: string; system?: string | null }>({
      name: 'purchase-changed',
      policy: 'stately',
      transaction: true,
      batchSize: 20,
      subscribes: [
        purchasesOf(TICKET_WITHDRAWN, 'ticket'),
        purchasesOf(CHECK_REFUNDED, 'food-and-beverage'),
        purchasesOf(RESERVATION_CANCELLED, 'hotel'),
      ],
      handler: async ({ data }) => {
        await reverseInvalidClaims(core, data.type, data.sourceId, data.system ?? null);
      },
    });
  },
  { name: 'loyalty-reversals', dependencies: ['jobs'] },
);
