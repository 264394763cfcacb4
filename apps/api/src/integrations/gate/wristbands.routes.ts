import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { gateWristband, wristbandParams } from '@boardwalk/contract/wristband';
import { findGateWristband } from './wristbands.service.ts';

/** The gate system's wristband lookup: GET /api/integrations/wristbands/{wristbandBarcode}. */
export const wristbandsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/integrations/wristbands/:wristbandBarcode', {
    config: { integrationScope: 'wristbands' },
    schema: {
      summary: 'The ticket a wristband is actively bound to (404 when the band is unknown or was deactivated)',
      params: wristbandParams,
      response: { 200: gateWristband, 404: apiError },
    },
    handler: (request) => findGateWristband({ db: app.database.db, wristbandBarcode: request.params.wristbandBarcode }),
  });
};
