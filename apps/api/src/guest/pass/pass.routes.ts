import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { loginRequest, passOrder, registerRequest, siteInfo } from '@boardwalk/contract/pass';
import { ticketContext } from '../ticket/ticket.service.ts';
import { lookupPass, registerPass } from './pass.service.ts';
import type { FastifyRequest } from 'fastify';

const errors = { 400: apiError, 404: apiError, 410: apiError, 429: apiError };

export const passRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (request: FastifyRequest) => ticketContext(app, request);

  app.post('/api/login/', {
    schema: {
      tags: ['guest'],
      summary: 'Find a pass by order id and barcode (order id 0 for a test pass), or by a share link',
      body: loginRequest,
      response: { 200: passOrder, ...errors },
    },
    handler: (request) => lookupPass(context(request), request.body),
  });

  app.post('/api/register/', {
    schema: {
      tags: ['guest'],
      summary: "Save the guest's registration for a ticket",
      body: registerRequest,
      response: { 200: passOrder, ...errors },
    },
    handler: async (request) => {
      return registerPass({ ...context(request), ticketChanges: app.ticketChanges }, request.body);
    },
  });

  app.get('/api/site/', {
    schema: { tags: ['guest'], summary: 'Public settings: brand and support email', response: { 200: siteInfo } },
    handler: async () => ({ brandName: app.config.brandName, supportEmail: app.config.supportEmail }),
  });
};
