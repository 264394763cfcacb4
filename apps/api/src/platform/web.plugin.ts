import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { guestShellFor, shellFile } from '@boardwalk/contract/guest-shells';
import { pageLanguage } from './guest-language.ts';

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
export function inlineStyleHashes(root = webDist): string[] {
  const path = `${root}/shells/csp.json`;
  if (!existsSync(path)) return [];
  const { styleSrc } = JSON.parse(readFileSync(path, 'utf8')) as { styleSrc?: unknown };
  return Array.isArray(styleSrc) ? styleSrc.filter((s): s is string => typeof s === 'string' && /^'sha256-[A-Za-z0-9+/=]+'$/.test(s)) : [];
}

/**
 * The icons the build draws from the logo (apps/web/vite.config.ts, @vite-pwa/assets-generator's
 * minimal-2023 preset), as the web manifest lists them.
 */
const MANIFEST_ICONS = [
  { src: '/pwa-64x64.png', sizes: '64x64', type: 'image/png' },
  { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
  { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
  { src: '/maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];
/** The park's colours on the guest pages (apps/web/index.html's theme-color, the cards' white). */
const THEME_COLOR = '#1b4965';
const BACKGROUND_COLOR = '#ffffff';

/**
 * The guest app's web manifest (installing it on a phone's home screen): the park's name is a
 * setting (BRAND_NAME), so the server writes it rather than the build. It opens at the pass
 * page and covers the guest pages only (the staff pages are no part of the installed app).
 */
export function webManifest(brandName: string) {
  return {
    name: brandName,
    short_name: brandName,
    description: 'Find your ticket or pass and add it to your digital wallet.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: MANIFEST_ICONS,
  };
}

/**
 * The built single-page app on the same port as the API: hashed assets cached for a year,
 * every other GET outside /api/ that is not a file name answers a page of the app, so client
 * routes load directly, whatever Accept says (curl and a load balancer's check send none).
 * The page is the prerendered first screen of that path (@boardwalk/contract/guest-shells:
 * the login form, the pass page's frame, the stored-value and loyalty pages), or the empty
 * frame for the others, in the guest's language (pageLanguage: the link's, the cookie's, the
 * browser's). Files come as their .br or .gz twin written by the build when the
 * client accepts it. The prerendered pages are also files of their own (/shells/pass.html):
 * the guest pages' service worker (/service-worker.js) keeps them to open a page offline.
 * Everything but the hashed assets is sent with `no-cache` (asked again each time), the
 * worker's script included, so a new build is seen at the next visit.
 */
export const webPlugin = fp(
  async (app) => {
    const root = app.config.webDir ?? webDist;
    const hasBuild = existsSync(`${root}/index.html`);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders(reply, path) {
          reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn(`no built app at ${root}: run "npm run build" to serve the guest pages`);
    }
    // The guest's language choice, kept on the device in a cookie (pageLanguage).
    await app.register(fastifyCookie);
    const manifest = JSON.stringify(webManifest(app.config.brandName));
    app.get('/manifest.webmanifest', { schema: { hide: true } }, (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').type('application/manifest+json').send(manifest),
    );
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isNotPage(path) && !looksLikeFile(path);
      if (hasBuild && wantsPage) {
        return reply
          .header('Cache-Control', 'no-cache')
          .header('Vary', 'Accept-Language, Cookie')
          .sendFile(shellFile(guestShellFor(path), pageLanguage(request)));
      }
      return reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: `No route ${request.method} ${path}` });
    });
  },
  { name: 'web' },
);
