// Ticket changes: the ticketing feed, registration and photos publish the barcodes whose
// tickets changed; wallet features subscribe to update passes already in wallets. This
// keeps the imports one-way (integrations and guest features publish, wallets listen).
import fp from 'fastify-plugin';

export type TicketChangeListener = (barcodes: string[]) => Promise<void>;

export interface TicketChanges {
  subscribe(listener: TicketChangeListener): void;
  /** Runs every listener; a failing listener is logged and does not fail the caller. */
  publish(barcodes: string[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ticketChanges: TicketChanges;
  }
}

export const ticketChangesPlugin = fp(
  async (app) => {
    const listeners: TicketChangeListener[] = [];
    app.decorate('ticketChanges', {
      subscribe: (listener) => void listeners.push(listener),
      async publish(barcodes) {
        if (barcodes.length === 0) return;
        const results = await Promise.allSettled(listeners.map((listener) => listener(barcodes)));
        for (const r of results) {
          if (r.status === 'rejected') app.log.error({ err: r.reason }, 'ticket change listener failed');
        }
      },
    } satisfies TicketChanges);
  },
  { name: 'ticket-changes' },
);
