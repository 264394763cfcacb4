import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { GUEST_SHELLS, guestShellFor } from '@boardwalk/contract/guest-shells';

export const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** The API and the folders of files: what is not there is a 404, never the app. */
const NOT_PAGES = ['/api', '/assets', '/models'];
const isNotPage = (path: string) =>
  NOT_PAGES.some((prefix) => path.toLowerCase() === prefix || path.toLowerCase().startsWith(`${prefix}/`));
/** A missing /favicon.ico stays a 404 rather than a page. */
const looksLikeFile = (path: string) => /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));

/**
 * The SHA-256 sources of the styles the build inlined in the prerendered pages (their first
 * screen's CSS, apps/web/vite.config.ts), for the CSP's style-src; none without a build.
 */
export function inlineStyleHashes(): string[] {
  const path = `${webDist}/shells/csp.json`;
  if (!existsSync(path)) return [];
  const { styleSrc } = JSON.parse(readFileSync(path, 'utf8')) as { styleSrc?: unknown };
  return Array.isArray(styleSrc) ? styleSrc.filter((s): s is string => typeof s === 'string' && /^'sha256-[A-Za-z0-9+/=]+'$/.test(s)) : [];
}

/**
 * The built single-page app on the same port as the API: hashed assets cached for a year,
 * every other GET outside /api/ that is not a file name answers a page of the app, so client
 * routes load directly, whatever Accept says (curl and a load balancer's check send none).
 * The page is the prerendered first screen of that path (@boardwalk/contract/guest-shells:
 * the login form, the pass page's frame, the stored-value and loyalty pages), or the empty
 * frame for the others. Files come as their .br or .gz twin written by the build when the
 * client accepts it; the prerendered pages are not served under their own names.
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
        // The prerendered pages are sent for their paths (below), not as files of their own.
        allowedPath: (_pathName, _root, request) => !request.url.toLowerCase().startsWith('/shells/'),
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
      if (hasBuild && wantsPage) return reply.header('Cache-Control', 'no-cache').sendFile(GUEST_SHELLS[guestShellFor(path)].file);
      return reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: `No route ${request.method} ${path}` });
    });
  },
  { name: 'web' },
);
