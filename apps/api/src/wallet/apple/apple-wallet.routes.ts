import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { appleWalletRequest, isLoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import { PKPASS_CONTENT_TYPE } from './apple-pkpass.ts';
import { passkitRoutes } from './passkit.routes.ts';

/** attachment; the brand as the file name, ASCII-safe, with the exact name for clients that read filename*. */
export function pkpassDisposition(brandName: string): string {
  const ascii = brandName.replace(/[^A-Za-z0-9 ._-]/g, '').trim() || 'pass';
  return `attachment; filename="${ascii}.pkpass"; filename*=UTF-8''${encodeURIComponent(`${brandName}.pkpass`)}`;
}

export const appleWalletRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/apple-wallet/', {
    schema: {
      tags: ['guest'],
      summary:
        'The signed Apple Wallet pass (.pkpass) of a ticket, by order id and barcode (+ share id) or by a share link; a loyalty member’s card by email and wallet token',
      body: appleWalletRequest,
      produces: [PKPASS_CONTENT_TYPE, 'application/json'],
      response: {
        // A Buffer is sent as it is (never serialized); in the OpenAPI document it shows as any content.
        200: z.instanceof(Buffer).describe('The pass: application/vnd.apple.pkpass, downloaded as an attachment named for the brand'),
        400: apiError,
        401: describe(apiError, 'Loyalty variant: no wallet token (the email alone), or one expired or not for this email'),
        403: describe(apiError, 'The ticket is excluded from wallets: the exclusion message'),
        404: apiError,
        409: describe(apiError, 'The pass has already been added to a wallet'),
        410: apiError,
        429: apiError,
      },
    },
    handler: async (request, reply) => {
      const { body } = request;
      const pkpass = isLoyaltyWalletRequest(body)
        ? await app.wallet.apple.createMemberCard(body)
        : await app.wallet.apple.createTicketPass(body, request.ip);
      return reply.type(PKPASS_CONTENT_TYPE).header('Content-Disposition', pkpassDisposition(app.config.brandName)).send(pkpass);
    },
  });

  await app.register(passkitRoutes);
};
