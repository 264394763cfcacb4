import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { googleWalletRequest, isLoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import { renderProgramLogo } from './google-wallet-images.ts';
import { callbackEnvelope } from './google-wallet-callbacks.ts';
import { GOOGLE_CALLBACKS_PATH, PROGRAM_LOGO_PATH } from './google-pass-content.service.ts';

const errors = {
  400: apiError,
  401: describe(apiError, 'Loyalty variant: no wallet token (the email alone), or one expired or not for this email'),
  403: apiError,
  404: apiError,
  410: apiError,
  429: apiError,
};

export const googleWalletRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/google-wallet/', {
    schema: {
      tags: ['guest'],
      summary:
        'The "Save to Google Wallet" link (text/plain) for a ticket, by order id and barcode (+ share id) or by a share link; for a loyalty member’s card by email and wallet token',
      body: googleWalletRequest,
      response: { 200: z.string().describe('https://pay.google.com/gp/v/save/<signed JWT>'), ...errors },
    },
    handler: async (request, reply) => {
      const { body } = request;
      const link = isLoyaltyWalletRequest(body)
        ? await app.wallet.google.createMemberCardLink(body)
        : await app.wallet.google.createTicketLink(body, request.ip);
      return reply.type('text/plain; charset=utf-8').send(link);
    },
  });

  app.post(GOOGLE_CALLBACKS_PATH, {
    // The service reads the body itself, so that a malformed one is counted as refused too.
    attachValidation: true,
    schema: {
      tags: ['google wallet'],
      summary:
        'Google Wallet save and delete callbacks (ECv2SigningOnly): verified against Google’s root keys, recorded once per nonce; 400 for anything not signed by Google',
      body: callbackEnvelope,
      response: {
        200: z.object({ outcome: z.enum(['accepted', 'duplicate']).describe('duplicate: this nonce was recorded before') }),
        400: apiError,
        503: describe(apiError, 'Google’s root keys could not be fetched (Retry-After)'),
      },
    },
    handler: async (request) => ({ outcome: await app.wallet.googleCallbacks.receive(request.validationError ? null : request.body) }),
  });

  app.get(PROGRAM_LOGO_PATH, {
    schema: {
      tags: ['guest'],
      summary: 'The brand logo as a PNG: the program logo Google Wallet shows on loyalty cards',
      produces: ['image/png'],
      response: { 200: z.instanceof(Buffer).describe('image/png, 660 x 660') },
    },
    handler: async (_request, reply) => {
      // Rendered first: an answer that failed is not cached for a day.
      const logo = await renderProgramLogo();
      return reply.type('image/png').header('Cache-Control', 'public, max-age=86400').send(logo);
    },
  });
};
