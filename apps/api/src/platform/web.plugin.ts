import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

export const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * The built single-page app on the same port as the API: hashed assets cached for a year,
 * every other GET that asks for HTML answers index.html so client routes load directly.
 * Files come as their .br or .gz twin written by the build when the client accepts it.
 */
export const webPlugin = fp(
  async (app) => {
    const hasBuild = existsSync(`${webDist}/index.html`);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders(reply, path) {
          reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn(`no built app at ${webDist}: run "npm run build" to serve the guest pages`);
    }
    app.setNotFoundHandler((request, reply) => {
      const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html');
      if (hasBuild && wantsPage) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      return reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` });
    });
  },
  { name: 'web' },
);
