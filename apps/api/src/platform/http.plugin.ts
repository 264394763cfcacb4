import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { AppError } from './errors.ts';
import { inlineStyleHashes } from './web.plugin.ts';

// eslint-disable-next-line no-control-regex -- the point is to find them
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The headers a helmet middleware sets, recorded once. Helmet sets the same headers on every
 * response (this policy has no nonce, nothing per request), through a chain of a dozen
 * middlewares that each call setHeader; set from the recorded list, with no-store added to API
 * answers in the same hook, a guest lookup cost the app's process 39 µs less CPU (bench:lookup,
 * docs/decisions.md "Security headers are worked out once").
 */
function recordedHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/** Security headers on every answer; API answers (personal data) are never cached. */
export const httpPlugin = fp(
  async (app) => {
    const securityHeaders = recordedHeaders(
      helmet({
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
      }),
    );
    // A route may still set its own Cache-Control (a logo Google fetches).
    const apiHeaders = { ...securityHeaders, 'cache-control': 'no-store' };
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.url.startsWith('/api/') ? apiHeaders : securityHeaders);
      done();
    });
    // Path and query values never carry control characters (a NUL cannot even be stored):
    // refused for every route, present and future, before its own validation or any query.
    app.addHook('preValidation', (request, _reply, done) => {
      for (const [where, values] of [
        ['path', request.params],
        ['query', request.query],
      ] as const) {
        for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
          if ([value].flat().some((v) => typeof v === 'string' && CONTROL_CHARACTER.test(v))) {
            const message = `${name}: must not contain control characters`;
            done(new AppError('VALIDATION_FAILED', message, { fields: [{ path: `${where}.${name}`, message }] }));
            return;
          }
        }
      }
      done();
    });
  },
  { name: 'http' },
);
