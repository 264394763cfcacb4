import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { wristbandActivateRequest, wristbandValidity } from '@boardwalk/contract/wristband';
import { activateWristband, type WristbandDeps } from './wristband.service.ts';

const errors = { 400: apiError, 401: apiError, 403: apiError, 408: apiError };

export const wristbandRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: WristbandDeps = { db: app.database.db, tickets: app.tickets, keys: app.keys, config: app.config };
  app.post('/api/wristband/activate/', {
    schema: {
      tags: ['guest'],
      summary:
        "Bind a wristband to a wristband ticket (the order object's wristbandActivateToken, 15 minutes); answers the validity text (text/plain)",
      body: wristbandActivateRequest,
      response: { 200: wristbandValidity, ...errors },
    },
    handler: async (request, reply) => {
      const validity = await activateWristband(deps, request.body);
      return reply.type('text/plain; charset=utf-8').send(validity);
    },
  });
};
