// The wallet jobs, run when this process runs workers (DELIVERY_WORKERS): a changed ticket's
// passes are compared with what they show (ticket-changed), as are a loyalty member's cards
// (loyalty-account-changed) and a removed member's voided cards (member-card-voided), a staff change re-publishes every
// saved pass (passes-republish), and the outbound calls go to APNs and Google.
import fp from 'fastify-plugin';
import { QUEUES } from '../../platform/jobs/job-queue.ts';
import type { DeliveryJobData } from '../../platform/jobs/delivery.ts';
import { findBarcodesWithPasses } from './apple-wallet.repo.ts';
import {
  compareApplePass,
  compareLoyaltyApplePass,
  compareVoidedApplePass,
  pushToDevice,
  type AppleDeliveryContext,
  type ApplePushPayload,
} from './apple-wallet.service.ts';
import {
  compareGoogleObject,
  updateGoogleObject,
  type GoogleUpdatePayload,
  type GoogleWalletUpdateContext,
} from './google-wallet.service.ts';

/** Tickets published per transaction by the fan-out of a staff change. */
const REPUBLISH_PAGE = 1000;

export const walletDeliveriesPlugin = fp(
  async (app) => {
    if (!app.config.deliveries.workers) return;
    const { db } = app.database;
    const log = app.log.child({ module: 'wallet-deliveries' });
    const apple: AppleDeliveryContext = {
      db,
      keys: app.keys,
      ticketChanges: app.ticketChanges,
      config: app.config,
      wallet: app.appleWallet,
      jobs: app.jobs,
      log,
    };
    const google: GoogleWalletUpdateContext = { db, config: app.config, wallet: app.googleWallet, jobs: app.jobs, log };

    await app.jobs.work<{ barcode: string }>(QUEUES.ticketChanged, { batchSize: 100 }, async ({ data }) => {
      await db.transaction(async (tx) => {
        await compareApplePass(apple, tx, data.barcode);
        await compareGoogleObject(google, tx, { barcode: data.barcode });
      });
    });
    await app.jobs.work<{ accountId: string }>(QUEUES.loyaltyAccountChanged, { batchSize: 100 }, async ({ data }) => {
      await db.transaction(async (tx) => {
        await compareLoyaltyApplePass(apple, tx, data.accountId);
        await compareGoogleObject(google, tx, { loyaltyAccountId: data.accountId });
      });
    });
    await app.jobs.work<{ serialNumber: string }>(QUEUES.memberCardVoided, { batchSize: 20 }, async ({ data }) => {
      await db.transaction(async (tx) => {
        await compareVoidedApplePass(apple, tx, data.serialNumber);
        await compareGoogleObject(google, tx, { voidedSerialNumber: data.serialNumber });
      });
    });
    await app.jobs.work(QUEUES.passesRepublish, { batchSize: 1 }, async () => {
      for (let after: string | null = null; ;) {
        const barcodes = await findBarcodesWithPasses(db, after, REPUBLISH_PAGE);
        if (barcodes.length === 0) break;
        await db.transaction((tx) => app.ticketChanges.publish(tx, barcodes));
        after = barcodes.at(-1)!;
      }
    });
    await app.jobs.work<ApplePushPayload & DeliveryJobData>(QUEUES.applePush, { batchSize: 100 }, (job) => pushToDevice(apple, job));
    await app.jobs.work<GoogleUpdatePayload & DeliveryJobData>(QUEUES.googleUpdate, { batchSize: 50 }, (job) =>
      updateGoogleObject(google, job),
    );
  },
  { name: 'wallet-deliveries', dependencies: ['jobs', 'ticket-changes', 'apple-wallet', 'google-wallet'] },
);
