import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { usageFeed, usageResult } from '@boardwalk/contract/integrations';
import { recordUsage } from './usage.service.ts';

/** The gate feed: POST /api/integrations/usage. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.verifyIntegrationKey);

  app.post('/api/integrations/usage', {
    schema: {
      tags: ['integrations'],
      security: [{ integrationKey: [] }],
      summary: 'Record attraction usage events (up to 1000; an event sent again is a duplicate)',
      body: usageFeed,
      response: { 200: usageResult, 400: apiError, 401: apiError, 413: apiError, 415: apiError },
    },
    handler: (request) => recordUsage({ db: app.database.db, events: request.body.events }),
  });
};
