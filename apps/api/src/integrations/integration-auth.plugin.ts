// Who may call the integration API, and what: `Authorization: Bearer <key>` against the keys of
// INTEGRATION_API_KEYS (`name:secret:scope+scope`), then the scope the route declares
// (`config: { integrationScope }`): 401 for no or an unknown key, 403 naming the scope the key
// lacks. A key written the old way (`name:secret`) may call every scope; the server warns at
// start, naming it. Each call is logged with the key's name, never the key. With no keys
// configured every call is refused.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IntegrationScope } from '@boardwalk/contract/integrations';
import { AppError } from '../platform/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of every integration route: 401 unless a configured key is presented. */
    verifyIntegrationKey(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The name of the integration key the call presented (after verifyIntegrationKey): the system it records as the cause. */
    integration: string;
    /** The scopes of that key. */
    integrationScopes: ReadonlySet<IntegrationScope>;
  }
  interface FastifyContextConfig {
    /** What an integration route needs the key to hold (every integration route declares one). */
    integrationScope?: IntegrationScope;
  }
}

/** Whether a key with these scopes may call a route needing `scope` (`reverse-any` covers `reverse`). */
export const holdsScope = (scopes: ReadonlySet<IntegrationScope>, scope: IntegrationScope) =>
  scopes.has(scope) || (scope === 'reverse' && scopes.has('reverse-any'));

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
    const configured = app.config.integrationApiKeys;
    const keys = new Map([...configured.values()].map((key) => [key.name, digest(key.secret)] as const));
    if (keys.size === 0) app.log.warn('INTEGRATION_API_KEYS is not set: the integration API refuses every call');
    for (const key of configured.values()) {
      if (key.unscoped) {
        app.log.warn(
          { integration: key.name },
          `INTEGRATION_API_KEYS: the key "${key.name}" is written name:secret, without scopes: it may call every scope; write it name:secret:scope+scope`,
        );
      }
    }
    app.decorateRequest('integration', '');
    app.decorateRequest('integrationScopes', null as unknown as ReadonlySet<IntegrationScope>);

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
      request.integrationScopes = configured.get(name)!.scopes;
      request.log.info({ integration: name, method: request.method, route: request.routeOptions.url }, 'integration call');
      const scope = request.routeOptions.config.integrationScope;
      // Every integration route declares its scope (integrations.routes.ts refuses to start otherwise).
      if (!scope || !holdsScope(request.integrationScopes, scope)) {
        request.log.warn({ integration: name, scope }, 'integration call refused: the key lacks the scope');
        throw new AppError('FORBIDDEN', `The integration key "${name}" lacks the scope "${scope}" this call needs.`);
      }
    });
  },
  { name: 'integration-auth', dependencies: ['data'] },
);
