import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/**
 * Compressed answers for clients that ask (Brotli, else gzip): JSON and other compressible
 * bodies of 1 KiB or more, with `Vary: Accept-Encoding`. The built app's assets are
 * compressed once at build time (apps/web/vite.config.ts) and served as such by the web
 * plugin; an answer that already has a Content-Encoding is left alone.
 */
export const compressionPlugin = fp(
  async (app) => {
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  },
  { name: 'compression' },
);
