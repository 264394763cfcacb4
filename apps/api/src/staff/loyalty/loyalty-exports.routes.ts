// GET /api/admin/loyalty/export/members.csv and /ledger.csv?from=&to= (Loyalty Export).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { LOYALTY_LEDGER_EXPORT_API, LOYALTY_MEMBERS_EXPORT_API, ledgerExportQuery } from '@boardwalk/contract/staff-loyalty';
import { attachment } from '../../platform/csv-stream.ts';
import { exportLedger, exportMembers, type LoyaltyExportDeps } from './loyalty-exports.service.ts';

export const loyaltyExportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: LoyaltyExportDeps = { db: app.database.db, timeZone: app.config.parkTimezone };
  const csv = { 200: z.instanceof(Readable).describe('A CSV file (text/csv; charset=utf-8), streamed') };
  const errors = { 400: apiError, 401: apiError, 403: apiError };

  app.get(LOYALTY_MEMBERS_EXPORT_API, {
    onRequest: app.staffGuard(LOYALTY.export),
    schema: { tags: ['staff'], summary: 'Loyalty: every member with their balance and tier now, as CSV', response: { ...csv, ...errors } },
    handler: async (request, reply) => {
      const now = new Date();
      const file = await exportMembers(deps, request.staff!, now);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`loyalty-members-${now.toISOString().slice(0, 10)}.csv`))
        .send(file);
    },
  });

  app.get(LOYALTY_LEDGER_EXPORT_API, {
    onRequest: app.staffGuard(LOYALTY.export),
    schema: {
      tags: ['staff'],
      summary: "Loyalty: the ledger's entries of a range of operating days, as CSV",
      querystring: ledgerExportQuery,
      response: { ...csv, ...errors },
    },
    handler: async (request, reply) => {
      const { range, file } = await exportLedger(deps, request.staff!, request.query, new Date());
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`loyalty-ledger-${range.from}-to-${range.to}.csv`))
        .send(file);
    },
  });
};
