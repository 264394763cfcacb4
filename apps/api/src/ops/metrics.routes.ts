// GET /metrics: the Prometheus exposition of this instance (platform/metrics.plugin.ts).
// With METRICS_TOKEN set it answers only to `Authorization: Bearer <METRICS_TOKEN>`,
// compared in constant time. Without it, it answers anyone in development; in production
// (NODE_ENV=production) it refuses everyone unless the operator opened it with METRICS_PUBLIC=true.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../platform/errors.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export const metricsClosedMessage =
  'The metrics are closed in production without a token: set METRICS_TOKEN and scrape with "Authorization: Bearer <METRICS_TOKEN>", or set METRICS_PUBLIC=true to open them to anyone';

export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const token = app.config.metricsToken === undefined ? undefined : digest(app.config.metricsToken);
  const closed = token === undefined && app.config.production && !app.config.metricsPublic;
  if (closed) app.log.warn('/metrics refuses every scrape: set METRICS_TOKEN, or METRICS_PUBLIC=true to open it to anyone');
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      onRequest: async (request, reply) => {
        if (closed) throw new AppError('FORBIDDEN', metricsClosedMessage);
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
