import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { AppError } from './errors.ts';
import { inlineStyleHashes } from './web.plugin.ts';

// eslint-disable-next-line no-control-regex -- the point is to find them
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Where a parsed body holds a NUL (a value or a key, at any depth), as the validation errors
 * name fields (`items.0.name`); undefined when none. PostgreSQL stores no NUL in text or jsonb:
 * such a value reached the database and answered 500. Other control characters are text a
 * field may hold (a line break in a description), and each field's own schema judges them.
 */
export function nulPath(body: unknown): string | undefined {
  const stack: [unknown, string][] = [[body, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || '(body)';
    } else if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
      for (const [key, inner] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push([inner, at]);
      }
    }
  }
  return undefined;
}

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
    // Path and query values never carry control characters, nor a body a NUL (which cannot even
    // be stored): refused for every route, present and future, before its own validation or any
    // query.
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
      const inBody = nulPath(request.body);
      if (inBody !== undefined) {
        const message = `${inBody}: must not contain the NUL character`;
        done(new AppError('VALIDATION_FAILED', message, { fields: [{ path: inBody, message }] }));
        return;
      }
      done();
    });
  },
  { name: 'http' },
);
