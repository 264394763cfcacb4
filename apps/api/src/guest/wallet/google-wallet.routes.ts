import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import { googleWalletRequest } from '@boardwalk/contract/wallet';
import { ticketContext } from '../ticket/ticket.service.ts';
import { createGoogleWalletLink } from './google-wallet.service.ts';

const errors = { 400: apiError, 403: apiError, 404: apiError, 410: apiError, 429: apiError };

export const googleWalletRoutes: FastifyPluginAsyncZod = async (app) => {
  const wallet = app.googleWallet;

  app.post('/api/google-wallet/', {
    schema: {
      tags: ['guest'],
      summary: 'The "Save to Google Wallet" link (text/plain) for a ticket, by order id and barcode (+ share id) or by a share link',
      body: googleWalletRequest,
      response: { 200: z.string().describe('https://pay.google.com/gp/v/save/<signed JWT>'), ...errors },
    },
    handler: async (request, reply) => {
      const link = await createGoogleWalletLink({ ...ticketContext(app, request), wallet }, request.body);
      return reply.type('text/plain; charset=utf-8').send(link);
    },
  });
};
