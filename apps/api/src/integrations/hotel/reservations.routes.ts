import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reservationFeed, reservationParam } from '@boardwalk/contract/integrations';
import { putFeedRoute } from '../feed-route.ts';
import { upsertReservation } from './reservations.service.ts';

/** The hotel feed: PUT /api/integrations/reservations/{reservationNumber}. */
export const reservationsRoutes: FastifyPluginAsyncZod = async (app) => {
  putFeedRoute(app, {
    url: '/api/integrations/reservations/:reservationNumber',
    scope: 'reservations',
    summary: 'Create or replace a hotel reservation (201 created, 200 replaced or unchanged)',
    params: reservationParam,
    body: reservationFeed,
    upsert: ({ params, body, system }) =>
      upsertReservation({ db: app.database.db, changes: app.jobs, reservationNumber: params.reservationNumber, reservation: body, system }),
  });
};
