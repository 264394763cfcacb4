// POST /api/admin/wristbands/deactivate/{id} (Wristbands Deactivate); the tab's list is the
// generic one (resources.routes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { WRISTBAND_DEACTIVATE, wristbandBindings } from '@boardwalk/contract/staff-wristband-tabs';
import { idParams, rowSchema } from '../resources/resource-schemas.ts';
import { deactivateWristband } from './wristbands.service.ts';

export const staffWristbandsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(`${WRISTBAND_DEACTIVATE.api}:id`, {
    onRequest: app.staffGuard(WRISTBAND_DEACTIVATE),
    schema: {
      tags: ['staff'],
      summary: 'Wristbands: deactivate a lost band (its ticket may bind a new one; this band never binds again)',
      params: idParams,
      response: { 200: rowSchema(wristbandBindings), 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError },
    },
    handler: (request) => deactivateWristband(app.database.db, { staff: request.staff!, id: request.params.id }),
  });
};
