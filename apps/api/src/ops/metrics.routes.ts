// GET /metrics: the Prometheus exposition of this instance (platform/metrics.plugin.ts).
// With METRICS_TOKEN set it answers only to `Authorization: Bearer <METRICS_TOKEN>`,
// compared in constant time; without it, to anyone (keep it off the public network).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../platform/errors.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const token = app.config.metricsToken === undefined ? undefined : digest(app.config.metricsToken);
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      onRequest: async (request, reply) => {
        if (token === undefined) return;
        const bearer = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers.authorization ?? '');
        // Both sides hashed: equal lengths for timingSafeEqual whatever was sent.
        if (bearer?.[1] && timingSafeEqual(digest(bearer[1]), token)) return;
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new AppError('UNAUTHORIZED', 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>"');
      },
    },
    async (_request, reply) => {
      const { text, contentType } = await app.metrics.exposition();
      return reply.type(contentType).header('Cache-Control', 'no-store').send(text);
    },
  );
};
