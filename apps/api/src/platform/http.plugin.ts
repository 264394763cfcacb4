import fp from 'fastify-plugin';
import helmet from 'helmet';
import { AppError } from './errors.ts';
import { inlineStyleHashes } from './web.plugin.ts';

// eslint-disable-next-line no-control-regex -- the point is to find them
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Security headers on every answer; API answers (personal data) are never cached. */
export const httpPlugin = fp(
  async (app) => {
    // Helmet itself, built once and run on every request, as its docs use it: @fastify/helmet
    // builds a new helmet (parsing the whole policy again) on every request, which cost 5% of
    // a guest lookup's CPU (bench:lookup profile). No route needs per-route options or nonces.
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // The first screen's CSS inlined in the prerendered pages, allowed by hash only.
          styleSrc: ["'self'", ...inlineStyleHashes(app.config.webDir ?? undefined)],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
      referrerPolicy: { policy: 'no-referrer' },
    });
    app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()));
    // Path and query values never carry control characters (a NUL cannot even be stored):
    // refused for every route, present and future, before its own validation or any query.
    app.addHook('preValidation', async (request) => {
      for (const [where, values] of [
        ['path', request.params],
        ['query', request.query],
      ] as const) {
        for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
          if ([value].flat().some((v) => typeof v === 'string' && CONTROL_CHARACTER.test(v))) {
            const message = `${name}: must not contain control characters`;
            throw new AppError('VALIDATION_FAILED', message, { fields: [{ path: `${where}.${name}`, message }] });
          }
        }
      }
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    });
  },
  { name: 'http' },
);
