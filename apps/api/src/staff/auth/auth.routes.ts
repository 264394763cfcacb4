// POST /app/login/ (201 with the session) and DELETE /app/logout/:sessionGUID.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import { staffLoginRequest, staffLoginResult, staffLogoutParams } from '@boardwalk/contract/staff-auth';
import { login, logout, type LoginDeps } from './auth.service.ts';

export const staffAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: LoginDeps = { db: app.database.db, throttles: app.staffLoginThrottles, sessionHours: app.config.staffSessionHours };
  app.post('/app/login/', {
    schema: {
      tags: ['staff'],
      summary: 'Log a team member in: a session and its bearer token',
      body: staffLoginRequest,
      response: { 201: staffLoginResult, 400: apiError, 401: apiError, 429: apiError },
    },
    handler: async (request, reply) => {
      return reply.code(201).send(await login(deps, request.body, request.ip));
    },
  });

  app.delete('/app/logout/:sessionGUID', {
    schema: {
      tags: ['staff'],
      summary: "End the caller's own session",
      security: [{ staffToken: [] }],
      params: staffLogoutParams,
      response: { 204: z.null(), 400: apiError, 401: apiError, 403: apiError },
    },
    preHandler: app.staffSession,
    handler: async (request, reply) => {
      await logout(app.database.db, request.staff!, request.params.sessionGUID);
      return reply.code(204).send(null);
    },
  });
};
