// GET /api/admin/deliveries/counts, /pushes and /certificate (the tab's list permission) and
// POST /api/admin/deliveries/retry/{id} (Deliveries Retry).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  appleCertificateStatus,
  applePushReport,
  DELIVERY_RETRY,
  deliveries,
  deliveryCounts,
} from '@boardwalk/contract/staff-operations-tabs';
import { tabPermission } from '@boardwalk/contract/staff-tabs';
import { certificateStatus } from '../../wallet/apple/apple-certificate-expiry.ts';
import { idParams } from '../resources/resource-schemas.ts';
import { countDeliveries, reportApplePushes, retryFailedDelivery, type DeliveriesDeps } from './deliveries.service.ts';

const guarded = { 401: apiError, 403: apiError };

export const deliveriesRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: DeliveriesDeps = { db: app.database.db, jobs: app.jobs };
  app.get(`${deliveries.api}counts`, {
    onRequest: app.staffGuard(tabPermission(deliveries, 'List')),
    schema: { tags: ['staff'], summary: 'Deliveries: how many are in each state', response: { 200: deliveryCounts, ...guarded } },
    handler: () => countDeliveries(app.database.db),
  });

  app.get(`${deliveries.api}pushes`, {
    onRequest: app.staffGuard(tabPermission(deliveries, 'List')),
    schema: {
      tags: ['staff'],
      summary:
        'Deliveries: Apple pushes of the last 24 hours (sent, fetched, not fetched after an hour, latency) and the devices that stopped fetching',
      response: { 200: applePushReport, ...guarded },
    },
    handler: () => reportApplePushes(app.database.db),
  });

  app.get(`${deliveries.api}certificate`, {
    onRequest: app.staffGuard(tabPermission(deliveries, 'List')),
    schema: {
      tags: ['staff'],
      summary: "Deliveries: the Apple signer certificate's expiry, with a warning when it is near",
      response: { 200: appleCertificateStatus, ...guarded },
    },
    handler: () => certificateStatus(app.appleWallet.certificate, app.config.apple.certWarningDays),
  });

  app.post(`${DELIVERY_RETRY.api}:id`, {
    onRequest: app.staffGuard(DELIVERY_RETRY),
    schema: {
      tags: ['staff'],
      summary: 'Deliveries: try a failed or dead delivery again now',
      params: idParams,
      response: { 202: z.object({ queued: z.literal(true) }), 400: apiError, 409: apiError, ...guarded },
    },
    handler: async (request, reply) => {
      await retryFailedDelivery(deps, { staff: request.staff!, id: request.params.id });
      return reply.code(202).send({ queued: true });
    },
  });
};
