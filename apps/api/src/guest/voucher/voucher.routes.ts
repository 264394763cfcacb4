import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { voucherRequest } from '@boardwalk/contract/wallet';
import { createVoucher, type VoucherDeps } from './voucher.service.ts';
import { guestLanguage } from '../../platform/guest-language.ts';

export const voucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: VoucherDeps = { db: app.database.db, tickets: app.tickets, config: app.config };
  app.post('/api/voucher/', {
    schema: {
      tags: ['guest'],
      summary: 'The printable voucher of a ticket (PDF, not for shared views), in the language Accept-Language prefers',
      body: voucherRequest,
      produces: ['application/pdf', 'application/json'],
      response: {
        // A Buffer is sent as it is (never serialized); in the OpenAPI document it shows as any content.
        200: z.instanceof(Buffer).describe('The voucher: application/pdf, downloaded as an attachment named with the barcode'),
        400: apiError,
        403: describe(apiError, 'The ticket is excluded from wallets and vouchers: the exclusion message'),
        404: apiError,
        429: apiError,
      },
    },
    handler: async (request, reply) => {
      const voucher = await createVoucher(deps, { clientAddress: request.ip, ...request.body, language: guestLanguage(request) });
      return reply.type('application/pdf').header('Content-Disposition', `attachment; filename="${voucher.fileName}"`).send(voucher.pdf);
    },
  });
};
