// app.tickets: the ticket core (ticket.service.ts), built once with this app's database,
// configuration, lookup throttles and keys. Every guest feature finds tickets through it.
import fp from 'fastify-plugin';
import { createTicketCore, type TicketCore } from './ticket.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tickets: TicketCore;
  }
}

export const ticketPlugin = fp(
  async (app) => {
    app.decorate('tickets', createTicketCore({ db: app.database.db, config: app.config, throttles: app.lookupThrottles, keys: app.keys }));
  },
  { name: 'tickets', dependencies: ['data', 'keys', 'throttle'] },
);
