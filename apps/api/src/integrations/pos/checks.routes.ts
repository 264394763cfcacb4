import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkFeed, checkIdParam, upsertResult } from '@boardwalk/contract/integrations';
import { upsertCheck } from './checks.service.ts';

/** The point-of-sale feed: PUT /api/integrations/checks/{checkId}. */
export const checksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put('/api/integrations/checks/:checkId', {
    config: { integrationScope: 'checks' },
    schema: {
      summary: 'Create or replace a food and beverage check (201 created, 200 replaced or unchanged)',
      params: checkIdParam,
      body: checkFeed,
      response: { 200: upsertResult, 201: upsertResult },
    },
    handler: async (request, reply) => {
      const outcome = await upsertCheck({
        db: app.database.db,
        changes: app.jobs,
        checkId: request.params.checkId,
        check: request.body,
        system: request.integration,
      });
      return reply.code(outcome === 'created' ? 201 : 200).send({ outcome });
    },
  });
};
