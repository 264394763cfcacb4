import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { storedValueRequest, storedValueResponse } from '@boardwalk/contract/stored-value';
import { getStoredValue, type StoredValueDeps } from './stored-value.service.ts';

export const storedValueRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: StoredValueDeps = { db: app.database.db, tickets: app.tickets, config: app.config };
  app.post('/api/stored-value/', {
    schema: {
      tags: ['guest'],
      summary: "A Stored Value Card's credits, cash and attraction usage of the current operating day, by its barcodeHash",
      body: storedValueRequest,
      response: {
        200: storedValueResponse,
        400: apiError,
        404: describe(apiError, 'No card has this barcodeHash (malformed or unknown): "Unable to locate order"; counts as a failed lookup'),
        429: apiError,
      },
    },
    handler: (request) => getStoredValue(deps, { clientAddress: request.ip, ...request.body }),
  });
};
