import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import { visitGateAnswer, visitGateParams } from '@boardwalk/contract/visits';
import { gateVisit } from './visits.service.ts';

/** The gate's question (scope `visits`): may this pass enter now on its reservation? Handed to the integration routes by the app. */
export const visitGateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/integrations/visits/:barcode', {
    config: { integrationScope: 'visits' },
    schema: {
      summary:
        "Whether a pass holds a reservation for now: its window, or the one it holds today; a pass needing none says so; the holder's photo",
      params: visitGateParams,
      response: { 200: visitGateAnswer, 404: apiError },
    },
    handler: (request) => gateVisit({ db: app.database.db, tickets: app.tickets, config: app.config }, request.params.barcode),
  });
};
