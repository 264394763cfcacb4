// Ticket changes: every service that changes what a pass shows (the ticketing feed, the
// import command, registration, photos, wallet binding, staff edits of pass settings)
// publishes the barcodes in its own transaction. Publishing writes a job: the wallet
// features compare the passes again once the coalescing window has passed and deliver what
// changed. Nothing is sent from the request that made the change. The feeds also publish the
// purchases a resend may have refunded or cancelled (tickets, checks, reservations): the
// loyalty club takes back the points of a claimed one (a purchase-changed job). The loyalty
// club publishes the accounts whose ledger or details changed: their cards are compared too,
// and the cards of a removed member, voided: their devices and Google are told.
import fp from 'fastify-plugin';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import { QUEUES, type JobQueue } from './jobs/job-queue.ts';

export interface TicketChanges {
  /** These tickets' passes are compared again; changes within the window become one delivery. */
  publish(tx: Executor, barcodes: string[]): Promise<void>;
  /** A change that can alter any pass (staff pass settings): every saved pass is compared again, by a job. */
  publishAll(tx: Executor, reason: string): Promise<void>;
  /** These purchases were resent or dropped by a feed: a claimed one that is no longer valid is reversed, by a job. */
  publishPurchases(tx: Executor, type: LoyaltyOrderType, sourceIds: string[]): Promise<void>;
  /** These loyalty accounts' ledgers or details changed: their wallet cards are compared again, like tickets' passes. */
  publishLoyaltyAccounts(tx: Executor, accountIds: string[]): Promise<void>;
  /** These member cards (serial numbers) were voided: their devices are pushed and the Google object made inactive, by a job. */
  publishVoidedCards(tx: Executor, serialNumbers: string[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ticketChanges: TicketChanges;
  }
}

export function createTicketChanges(jobs: JobQueue, coalesceSeconds: number): TicketChanges {
  return {
    async publish(tx, barcodes) {
      const unique = [...new Set(barcodes)];
      await jobs.insert(
        tx,
        unique.map((barcode) => ({
          name: QUEUES.ticketChanged,
          data: { barcode },
          singletonKey: barcode,
          startAfterSeconds: coalesceSeconds,
        })),
      );
    },
    async publishAll(tx, reason) {
      await jobs.send(tx, { name: QUEUES.passesRepublish, data: { reason } });
    },
    async publishPurchases(tx, type, sourceIds) {
      await jobs.insert(
        tx,
        [...new Set(sourceIds)].map((sourceId) => ({
          name: QUEUES.purchaseChanged,
          data: { type, sourceId },
          singletonKey: `${type}:${sourceId}`,
        })),
      );
    },
    async publishLoyaltyAccounts(tx, accountIds) {
      await jobs.insert(
        tx,
        [...new Set(accountIds)].map((accountId) => ({
          name: QUEUES.loyaltyAccountChanged,
          data: { accountId },
          singletonKey: accountId,
          startAfterSeconds: coalesceSeconds,
        })),
      );
    },
    async publishVoidedCards(tx, serialNumbers) {
      await jobs.insert(
        tx,
        [...new Set(serialNumbers)].map((serialNumber) => ({
          name: QUEUES.memberCardVoided,
          data: { serialNumber },
          singletonKey: serialNumber,
        })),
      );
    },
  };
}

export const ticketChangesPlugin = fp(
  async (app) => {
    app.decorate('ticketChanges', createTicketChanges(app.jobs, app.config.deliveries.coalesceSeconds));
  },
  { name: 'ticket-changes', dependencies: ['jobs'] },
);
