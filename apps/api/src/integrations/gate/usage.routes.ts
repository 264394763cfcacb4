import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { usageFeed, usageResult } from '@boardwalk/contract/integrations';
import { recordUsage } from './usage.service.ts';

/** The gate feed: POST /api/integrations/usage. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/integrations/usage', {
    config: { integrationScope: 'usage' },
    schema: {
      summary: 'Record attraction usage events (up to 1000; an event sent again is a duplicate)',
      body: usageFeed,
      response: { 200: usageResult },
    },
    handler: (request) => app.database.db.transaction((tx) => recordUsage({ db: tx, changes: app.jobs, events: request.body.events })),
  });
};
