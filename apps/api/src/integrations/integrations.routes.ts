// The integration API (its contract for integrators is docs/integration-api.md): one scope for
// the feeds of the operator's systems. It carries, once for every route inside, the key check
// (integration-auth.plugin.ts), the security scheme and tag of the OpenAPI page, and the error
// answers every call shares. The app may hand in more inbound routes declared elsewhere (the
// loyalty core's till calls), so that integrations never import the features above them.
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '@boardwalk/contract/errors';
import { eventsRoutes } from './events/events.routes.ts';
import { usageRoutes } from './gate/usage.routes.ts';
import { wristbandsRoutes } from './gate/wristbands.routes.ts';
import { reservationsRoutes } from './hotel/reservations.routes.ts';
import { checksRoutes } from './pos/checks.routes.ts';
import { ordersRoutes } from './ticketing/orders.routes.ts';

/** Answers any call may get: a bad request, no or a wrong key, a key without the route's scope, too large, not JSON. */
const sharedErrors = { 400: apiError, 401: apiError, 403: apiError, 413: apiError, 415: apiError };

export const integrationsRoutes: FastifyPluginAsync<{ inbound?: FastifyPluginAsync[] }> = async (app, options) => {
  app.addHook('onRequest', app.verifyIntegrationKey);
  app.addHook('onRoute', (route) => {
    // A route without a scope would answer 403 to every key: say so at start instead.
    if (!route.config?.integrationScope) throw new Error(`The integration route ${route.method} ${route.url} declares no integrationScope`);
    const schema = route.schema ?? {};
    route.schema = {
      tags: ['integrations'],
      security: [{ integrationKey: [] }],
      ...schema,
      response: { ...sharedErrors, ...(schema.response as object | undefined) },
    };
  });
  await app.register(ordersRoutes); // ticketing
  await app.register(usageRoutes); // gate
  await app.register(wristbandsRoutes); // gate
  await app.register(checksRoutes); // point of sale
  await app.register(reservationsRoutes); // hotel
  await app.register(eventsRoutes); // the operator's CRM and marketing systems
  for (const routes of options.inbound ?? []) await app.register(routes);
};
