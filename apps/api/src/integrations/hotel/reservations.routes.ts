import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reservationFeed, reservationParam, upsertResult } from '@boardwalk/contract/integrations';
import { upsertReservation } from './reservations.service.ts';

/** The hotel feed: PUT /api/integrations/reservations/{reservationNumber}. */
export const reservationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put('/api/integrations/reservations/:reservationNumber', {
    config: { integrationScope: 'reservations' },
    schema: {
      summary: 'Create or replace a hotel reservation (201 created, 200 replaced or unchanged)',
      params: reservationParam,
      body: reservationFeed,
      response: { 200: upsertResult, 201: upsertResult },
    },
    handler: async (request, reply) => {
      const { reservationNumber } = request.params;
      const outcome = await upsertReservation({
        db: app.database.db,
        changes: app.jobs,
        reservationNumber,
        reservation: request.body,
        system: request.integration,
      });
      return reply.code(outcome === 'created' ? 201 : 200).send({ outcome });
    },
  });
};
