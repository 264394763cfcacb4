import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { heldOrder, orderFeed, orderIdParam, upsertResult } from '@boardwalk/contract/integrations';
import { getHeldOrder, upsertOrder } from './orders.service.ts';

/** The ticketing feed: PUT and GET /api/integrations/orders/{orderId}. */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put('/api/integrations/orders/:orderId', {
    config: { integrationScope: 'orders' },
    schema: {
      summary: 'Create or replace an order and its tickets (201 created, 200 replaced or unchanged)',
      params: orderIdParam,
      body: orderFeed,
      response: { 200: upsertResult, 201: upsertResult, 409: apiError.describe('A barcode belongs to another order') },
    },
    handler: async (request, reply) => {
      const outcome = await upsertOrder({
        db: app.database.db,
        changes: app.jobs,
        orderId: request.params.orderId,
        order: request.body,
        system: request.integration,
      });
      return reply.code(outcome === 'created' ? 201 : 200).send({ outcome });
    },
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
