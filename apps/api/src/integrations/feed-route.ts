// A feed's PUT route, the same for every sending system that sends whole records (orders,
// checks, reservations): the record under its key in the path, guarded by the feed's
// integration scope, written by the feed's service, answered 201 when it was created and 200
// when it was replaced or unchanged (a resend is harmless).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { upsertResult, type IntegrationScope, type UpsertOutcome } from '@boardwalk/contract/integrations';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export function putFeedRoute<P extends z.ZodType, B extends z.ZodType>(
  app: ZodApp,
  route: {
    url: string;
    scope: IntegrationScope;
    summary: string;
    params: P;
    body: B;
    /** The feed's refusals besides the validation's 400 (the orders feed's 409). */
    refusals?: Record<number, z.core.$ZodType>;
    /** Writes the record; `system` is the integration key's name, recorded on what its change causes. */
    upsert: (record: { params: z.output<P>; body: z.output<B>; system: string }) => Promise<UpsertOutcome>;
  },
): void {
  app.put(route.url, {
    config: { integrationScope: route.scope },
    schema: {
      summary: route.summary,
      params: route.params,
      body: route.body,
      response: { 200: upsertResult, 201: upsertResult, ...route.refusals },
    },
    handler: async (request, reply) => {
      // The schemas above validated both: they are the declared types.
      const params = request.params as z.output<P>;
      const body = request.body as z.output<B>;
      const outcome = await route.upsert({ params, body, system: request.integration });
      return reply.code(outcome === 'created' ? 201 : 200).send({ outcome });
    },
  });
}
