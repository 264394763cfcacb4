import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { heldOrder, orderFeed, orderIdParam } from '@boardwalk/contract/integrations';
import { putFeedRoute } from '../feed-route.ts';
import { getHeldOrder, upsertOrder } from './orders.service.ts';

/** The ticketing feed: PUT and GET /api/integrations/orders/{orderId}. */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  putFeedRoute(app, {
    url: '/api/integrations/orders/:orderId',
    scope: 'orders',
    summary: 'Create or replace an order and its tickets (201 created, 200 replaced or unchanged)',
    params: orderIdParam,
    body: orderFeed,
    refusals: { 409: describe(apiError, 'A barcode belongs to another order') },
    upsert: ({ params, body, system }) =>
      upsertOrder({ db: app.database.db, changes: app.jobs, orderId: params.orderId, order: body, system }),
  });

  app.get('/api/integrations/orders/:orderId', {
    config: { integrationScope: 'orders' },
    schema: {
      summary: 'What Boardwalk holds for an order: tickets, registrations and active shares',
      params: orderIdParam,
      response: { 200: heldOrder, 404: apiError },
    },
    handler: (request) => getHeldOrder({ db: app.database.db, orderId: request.params.orderId }),
  });
};
