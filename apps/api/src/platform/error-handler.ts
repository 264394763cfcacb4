// The one error handler: domain errors and 4xx keep their status and a clear message; a
// database that cannot be reached is a 503 with Retry-After; anything else is logged and
// answered as a plain 500 with no internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorCodeForStatus, type ApiError } from '@boardwalk/contract/errors';
import { isDatabaseUnavailable } from './database-health.ts';
import { AppError } from './errors.ts';

/** What a 503 tells the caller to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

function fieldPath(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.') || '(body)';
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    let body: ApiError;
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds) reply.header('Retry-After', String(error.extra.retryAfterSeconds));
      body = { statusCode: error.statusCode, error: error.code, message: error.message };
      if (error.extra.fields) body.fields = error.extra.fields;
      if (error.extra.reason) body.reason = error.extra.reason;
      if (error.extra.params) body.params = error.extra.params;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((v) => ({ path: fieldPath(v.instancePath), message: v.message ?? 'Invalid' }));
      const first = fields[0];
      body = {
        statusCode: 400,
        error: 'VALIDATION_FAILED',
        message: first ? `${first.path}: ${first.message}` : 'The request is not valid',
        fields,
      };
    } else if (isDatabaseUnavailable(error)) {
      // Logged once by the health watch, not once per request.
      request.server.databaseHealth.lost(error);
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      body = {
        statusCode: 503,
        error: 'DATABASE_UNAVAILABLE',
        message: 'The service is briefly unavailable. Please try again in a few seconds.',
      };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large...) under the contract's codes.
      body = { statusCode: error.statusCode, error: errorCodeForStatus(error.statusCode) ?? 'VALIDATION_FAILED', message: error.message };
    } else {
      request.log.error({ err: error }, 'unhandled error');
      body = { statusCode: 500, error: 'INTERNAL', message: 'Unable to process your request' };
    }
    return reply.code(body.statusCode).send(body);
  });
}
