// The wallet's queues. A changed ticket's passes are compared with what they show
// (ticket-changed), as are a loyalty member's cards (loyalty-account-changed) and a removed
// member's voided cards (member-card-voided); a staff change re-publishes every saved pass
// (passes-republish) and brings Google's ticket classes up to date (google-classes), and a
// change of the tiers re-publishes every member card (member-cards-republish); and the
// outbound calls go to APNs (apns-push; apple-push, its earlier queue, is drained) and Google
// (google-update). A change of the park's hours or locations is a park-wide wave (park-wave):
// every Apple device pushed once, Google's classes sent once.
import fp from 'fastify-plugin';
import type { Db } from '@boardwalk/db/client';
import type { DeliveryJobData } from '../../platform/jobs/delivery.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { LOYALTY_ACCOUNT_CHANGED, LOYALTY_TIERS_CHANGED } from '../../loyalty/loyalty.topics.ts';
import { PARK_CHANGED, PASSES_CHANGED } from '../../guest/ticket/ticket.topics.ts';
import { PARK_WAVE_EXPIRE_SECONDS, PARK_WAVE_QUEUE, type ParkWaveJob } from './park-waves.service.ts';
import { APPLE_PUSH_BATCH, APPLE_PUSH_QUEUE, RETIRED_APPLE_PUSH_QUEUE, type ApplePushPayload } from './apple-deliveries.service.ts';
import { findAccountsWithCards, findBarcodesWithPasses } from '../wallet-passes.repo.ts';
import { GOOGLE_UPDATE_QUEUE, type GoogleUpdatePayload } from './google-deliveries.service.ts';
import { MEMBER_CARD_VOIDED } from '../member-cards.service.ts';

/** Tickets (or members) published per transaction by the fan-out of a staff change. */
const REPUBLISH_PAGE = 1000;

export const walletDeliveriesJobs = fp(
  async (app) => {
    const { db } = app.database;
    const { appleDeliveries: apple, googleDeliveries: google } = app.wallet;

    /** Publishes every key the finder pages through (tickets or members with a saved pass), a page per transaction. */
    const republish = async (find: (db: Db, after: string | null, limit: number) => Promise<string[]>, topic: string) => {
      for (let after: string | null = null; ;) {
        const keys = await find(db, after, REPUBLISH_PAGE);
        if (keys.length === 0) break;
        await db.transaction((tx) => app.jobs.publish(tx, topic, keys, null, { wave: true }));
        after = keys.at(-1)!;
      }
    };

    await app.jobs.declare<{ barcode: string }>({
      name: 'ticket-changed',
      policy: 'stately',
      transaction: true,
      batchSize: 100,
      subscribes: [{ topic: TICKET_CHANGED, data: (barcode) => ({ barcode }), coalesce: true }],
      handler: async ({ data }) => {
        await db.transaction(async (tx) => {
          await apple.compareTicketPass(tx, data.barcode);
          await google.compareObject(tx, { barcode: data.barcode });
        });
      },
    });
    await app.jobs.declare<{ accountId: string }>({
      name: 'loyalty-account-changed',
      policy: 'stately',
      transaction: true,
      batchSize: 100,
      subscribes: [{ topic: LOYALTY_ACCOUNT_CHANGED, data: (accountId) => ({ accountId }), coalesce: true }],
      handler: async ({ data }) => {
        await db.transaction(async (tx) => {
          await apple.compareMemberCard(tx, data.accountId);
          await google.compareObject(tx, { loyaltyAccountId: data.accountId });
        });
      },
    });
    await app.jobs.declare<{ serialNumber: string }>({
      name: 'member-card-voided',
      policy: 'stately',
      transaction: true,
      batchSize: 20,
      subscribes: [{ topic: MEMBER_CARD_VOIDED, data: (serialNumber) => ({ serialNumber }) }],
      handler: async ({ data }) => {
        await db.transaction(async (tx) => {
          await apple.compareVoidedCard(tx, data.serialNumber);
          await google.compareObject(tx, { voidedSerialNumber: data.serialNumber });
        });
      },
    });
    await app.jobs.declare({
      name: 'passes-republish',
      policy: 'standard',
      batchSize: 1,
      subscribes: [{ topic: PASSES_CHANGED, data: (reason) => ({ reason }) }],
      handler: () => republish(findBarcodesWithPasses, TICKET_CHANGED),
    });
    await app.jobs.declare({
      name: 'member-cards-republish',
      policy: 'standard',
      batchSize: 1,
      subscribes: [{ topic: LOYALTY_TIERS_CHANGED, data: (reason) => ({ reason }) }],
      handler: () => republish(findAccountsWithCards, LOYALTY_ACCOUNT_CHANGED),
    });
    await app.jobs.declare({
      name: 'google-classes',
      policy: 'stately',
      batchSize: 1,
      subscribes: [PASSES_CHANGED, PARK_CHANGED].map((topic) => ({ topic, data: () => ({}), singletonKey: () => 'classes' })),
      // And at start: a class whose content changed with a new version (the callback URL) is sent.
      atStart: true,
      handler: () => google.syncClasses(),
    });
    await app.jobs.declare<ParkWaveJob>({
      name: PARK_WAVE_QUEUE,
      // Staff edits within the coalescing window are one wave; a waiting one absorbs the next.
      policy: 'stately',
      batchSize: 1,
      expireSeconds: PARK_WAVE_EXPIRE_SECONDS,
      subscribes: [{ topic: PARK_CHANGED, data: (reason) => ({ reason }), singletonKey: () => 'park-change', coalesce: true }],
      handler: (job) => app.wallet.parkWaves.run(job),
    });
    // The APNs queue, and the one before it, drained by the same handler.
    for (const [name, policy] of [
      [APPLE_PUSH_QUEUE, 'short'],
      [RETIRED_APPLE_PUSH_QUEUE, 'stately'],
    ] as const) {
      await app.jobs.declare<ApplePushPayload & DeliveryJobData>({
        name,
        policy,
        batchSize: APPLE_PUSH_BATCH,
        batchHandler: (jobs) => apple.pushToDevices(jobs),
      });
    }
    await app.jobs.declare<GoogleUpdatePayload & DeliveryJobData>({
      name: GOOGLE_UPDATE_QUEUE,
      policy: 'stately',
      batchSize: 50,
      handler: (job) => google.updateObject(job),
    });
  },
  { name: 'wallet-deliveries', dependencies: ['jobs', 'wallet'] },
);
