import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const status = z.object({ status: z.string() });

/** Liveness (/healthz: the process answers) and readiness (/readyz: the database answers). */
export const opsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { tags: ['ops'], response: { 200: status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags: ['ops'], response: { 200: status, 503: status } } }, async (_request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready' };
    } catch (err) {
      // Said once by the health watch, not at every probe.
      app.databaseHealth.lost(err);
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
};
