import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document (/docs/json) and its page (/docs), generated from the route schemas. */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Boardwalk API', version: '1.0.0', description: 'Guest pass API and the integration API of the operator systems.' },
        components: {
          securitySchemes: {
            integrationKey: { type: 'http', scheme: 'bearer', description: 'INTEGRATION_API_KEYS secret' },
            staffToken: { type: 'http', scheme: 'bearer', description: 'accessToken of POST /app/login/' },
            ticketShareToken: { type: 'http', scheme: 'bearer', description: 'ticketShareToken of the order object (POST /api/login/)' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  },
  { name: 'docs' },
);
