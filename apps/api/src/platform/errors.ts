// Typed domain errors; the error handler (error-handler.ts) maps them to HTTP answers. The
// codes and their statuses are the contract's (packages/contract/src/errors.ts).
import { ERROR_STATUS, type ErrorCode, type ErrorReason } from '@boardwalk/contract/errors';

export type { ErrorCode } from '@boardwalk/contract/errors';

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { retryAfterSeconds?: number; fields?: { path: string; message: string }[] } & ErrorReason = {},
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }
}
