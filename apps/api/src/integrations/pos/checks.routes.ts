import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkFeed, checkIdParam } from '@boardwalk/contract/integrations';
import { putFeedRoute } from '../feed-route.ts';
import { upsertCheck } from './checks.service.ts';

/** The point-of-sale feed: PUT /api/integrations/checks/{checkId}. */
export const checksRoutes: FastifyPluginAsyncZod = async (app) => {
  putFeedRoute(app, {
    url: '/api/integrations/checks/:checkId',
    scope: 'checks',
    summary: 'Create or replace a food and beverage check (201 created, 200 replaced or unchanged)',
    params: checkIdParam,
    body: checkFeed,
    upsert: ({ params, body, system }) =>
      upsertCheck({ db: app.database.db, changes: app.jobs, checkId: params.checkId, check: body, system }),
  });
};
