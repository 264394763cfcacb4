// Who may call the integration API: `Authorization: Bearer <key>` against the keys of
// INTEGRATION_API_KEYS (name:secret pairs). Each call is logged with the key's name, never
// the key. With no keys configured every call is refused.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../platform/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of every integration route: 401 unless a configured key is presented. */
    verifyIntegrationKey(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The name of the integration key the call presented (after verifyIntegrationKey). */
    integration: string;
  }
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The name of the key equal to the presented one, or null. Every key is compared, in constant time. */
export function matchIntegrationKey(keys: ReadonlyMap<string, Buffer>, presented: string): string | null {
  const presentedDigest = digest(presented);
  let match: string | null = null;
  for (const [name, secretDigest] of keys) {
    if (timingSafeEqual(secretDigest, presentedDigest) && match === null) match = name;
  }
  return match;
}

export const integrationAuthPlugin = fp(
  async (app) => {
    // Hash both sides: equal lengths for timingSafeEqual, and the secrets are not kept in clear.
    const keys = new Map([...app.config.integrationApiKeys].map(([name, secret]) => [name, digest(secret)] as const));
    if (keys.size === 0) app.log.warn('INTEGRATION_API_KEYS is not set: the integration API refuses every call');
    app.decorateRequest('integration', '');

    app.decorate('verifyIntegrationKey', async (request: FastifyRequest, reply: FastifyReply) => {
      const refuse = (message: string) => {
        reply.header('WWW-Authenticate', 'Bearer realm="integrations"');
        return new AppError('UNAUTHORIZED', message);
      };
      const bearer = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers.authorization ?? '');
      if (!bearer?.[1]) throw refuse('Send the integration API key as "Authorization: Bearer <key>"');
      const name = matchIntegrationKey(keys, bearer[1]);
      if (name === null) {
        request.log.warn('integration call with an unknown key refused');
        throw refuse('The integration API key is not valid');
      }
      request.integration = name;
      request.log.info({ integration: name, method: request.method, route: request.routeOptions.url }, 'integration call');
    });
  },
  { name: 'integration-auth', dependencies: ['data'] },
);
