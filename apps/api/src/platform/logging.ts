// Logger options: secrets (barcodes, hashUrls, tokens) never reach the log.
import type { FastifyServerOptions, FastifyRequest } from 'fastify';

/** Masks a barcode to its last 4 digits: 3400000000000017 -> ************0017. */
export function maskBarcode(barcode: string): string {
  return barcode.length <= 4 ? '****' : `${'*'.repeat(barcode.length - 4)}${barcode.slice(-4)}`;
}

/** Masks what looks like a secret in a URL: digit runs of 8+ (barcodes) and long tokens (hashUrls). */
export function maskUrl(url: string): string {
  return url
    .replace(/[A-Za-z0-9_-]{40,}/g, (m) => `${m.slice(0, 4)}…[${m.length}]`)
    .replace(/\d{8,}/g, maskBarcode);
}

export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    serializers: {
      req(req: FastifyRequest) {
        return { method: req.method, url: maskUrl(req.url), remoteAddress: req.ip };
      },
    },
  };
}
