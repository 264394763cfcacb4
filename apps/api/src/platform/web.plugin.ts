import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

export const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** The API and the folders of files: what is not there is a 404, never the app. */
const NOT_PAGES = ['/api', '/assets', '/models'];
const isNotPage = (path: string) =>
  NOT_PAGES.some((prefix) => path.toLowerCase() === prefix || path.toLowerCase().startsWith(`${prefix}/`));
/** A missing /favicon.ico stays a 404 rather than a page. */
const looksLikeFile = (path: string) => /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));

/**
 * The built single-page app on the same port as the API: hashed assets cached for a year,
 * every other GET outside /api/ that is not a file name answers index.html, so client routes
 * load directly, whatever Accept says (curl and a load balancer's check send none).
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
      const path = request.url.split('?')[0] ?? '';
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isNotPage(path) && !looksLikeFile(path);
      if (hasBuild && wantsPage) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      return reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: `No route ${request.method} ${path}` });
    });
  },
  { name: 'web' },
);
