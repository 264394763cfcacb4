// Logger options: secrets (barcodes, hashUrls, tokens, email addresses) never reach the log.
import type { FastifyServerOptions, FastifyRequest } from 'fastify';
import pinoPretty from 'pino-pretty';

/** Masks a barcode to its last 4 digits: 3400000000000017 -> ************0017. */
export function maskBarcode(barcode: string): string {
  return barcode.length <= 4 ? '****' : `${'*'.repeat(barcode.length - 4)}${barcode.slice(-4)}`;
}

/** An email address, its @ also URL-encoded (%40): the local part's first character, the separator, the domain. */
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*(@|%40)([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/**
 * Masks every email address in a text to the first character of its local part and its
 * domain: jane.doe@example.com -> j…@example.com (jane%40example.com -> j…%40example.com).
 */
export function maskEmails(text: string): string {
  return text.includes('@') || text.includes('%40') ? text.replace(EMAIL, '$1…$2$3') : text;
}

/**
 * Masks what looks like a secret in a URL: email addresses (a search by email), digit runs
 * of 8+ (barcodes), long tokens (hashUrls), the member card's token (32 hex digits: a till's
 * member look-up), the wristband code of the gate's lookup (16 letters or digits) and the
 * device id of Apple's PassKit calls (whoever knows one may list that device's passes).
 */
export function maskUrl(url: string): string {
  return (
    maskEmails(url)
      // PassKit's /v1/devices/{deviceLibraryIdentifier}/...: the id whatever its length.
      .replace(/(\/devices\/)([^/?#]+)/g, (_, prefix: string, id: string) => `${prefix}${maskBarcode(id)}`)
      // Share links and other long secrets first, whole.
      .replace(/[A-Za-z0-9_-]{40,}/g, (m) => `${m.slice(0, 4)}…[${m.length}]`)
      // Member card tokens (32 hex digits).
      .replace(/(?<![A-Za-z0-9])[0-9a-fA-F]{32}(?![A-Za-z0-9])/g, maskBarcode)
      // Wristband codes (16 letters or digits), in a path or a search.
      .replace(/(?<![A-Za-z0-9])(?=[A-Za-z]*\d)[A-Za-z0-9]{16}(?![A-Za-z0-9])/g, maskBarcode)
      .replace(/\d{8,}/g, maskBarcode)
  );
}

interface LogSink {
  write(line: string): unknown;
}

/**
 * The logger: JSON lines to `stream` (standard output by default), or with `pretty`
 * (standard output is a terminal) lines for people through pino-pretty. Either way the
 * redaction and serializers below apply first, and every line written has its email
 * addresses masked, whatever field or message carried them.
 */
export function loggerOptions(
  level: string,
  destination: { pretty?: boolean; stream?: LogSink } = {},
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const sink: LogSink =
    destination.stream ?? (destination.pretty ? pinoPretty({ translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) : process.stdout);
  return {
    level,
    stream: { write: (line: string) => void sink.write(maskEmails(line)) },
    // Request headers and bodies are not logged (see the req serializer); these paths catch
    // them should a log call pass one along: bearer tokens, staff passwords and tokens.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.headers.authorization',
        'teamMemberPassword',
        '*.teamMemberPassword',
        'req.body.teamMemberPassword',
        'password',
        '*.password',
        'accessToken',
        '*.accessToken',
        'passwordHash',
        '*.passwordHash',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: FastifyRequest) {
        return { method: req.method, url: maskUrl(req.url), remoteAddress: req.ip };
      },
      // Typed as Fastify's (errors only), though log calls also pass strings under err.
      err: serializeError as (error: Error) => { type: string; message: string; stack: string },
    },
  };
}

/**
 * Errors as pino's standard serializer shows them (type, message, stack, code, statusCode),
 * except that a failed query's parameters are left out: Drizzle puts them in the message
 * and the stack, and they may hold password hashes, token hashes and barcodes. Of a cause
 * (the driver's error) only its type, message and code are kept, not its detail.
 */
export function serializeError(error: unknown): unknown {
  // Anything but an error (err: 'a message') is logged as it is, as pino's serializer does.
  if (!(error instanceof Error)) return error;
  const { code, statusCode, params } = error as Error & { code?: unknown; statusCode?: unknown; params?: unknown };
  const message = String(error.message);
  const masked = params === undefined ? message : message.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
  const out: { type: string; message: string; stack: string; [key: string]: unknown } = {
    type: error.constructor?.name ?? 'Error',
    message: masked,
    stack: (error.stack ?? '').replace(message, masked),
  };
  if (code !== undefined) out.code = code;
  if (statusCode !== undefined) out.statusCode = statusCode;
  if (error.cause instanceof Error) {
    const cause = error.cause as Error & { code?: unknown };
    out.cause = { type: cause.constructor.name, message: cause.message, ...(cause.code !== undefined && { code: cause.code }) };
  }
  return out;
}
