// Typed domain errors; the error handler (error-handler.ts) maps them to HTTP answers.
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'ORDER_NOT_FOUND'
  | 'REGISTER_FAILED'
  | 'PASS_NO_LONGER_SHARED'
  | 'TOO_MANY_ATTEMPTS'
  | 'UNAUTHORIZED'
  | 'CONFLICT'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNPROCESSABLE_IMAGE';

const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  ORDER_NOT_FOUND: 404,
  REGISTER_FAILED: 400,
  PASS_NO_LONGER_SHARED: 410,
  TOO_MANY_ATTEMPTS: 429,
  UNAUTHORIZED: 401,
  CONFLICT: 409,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_IMAGE: 400,
};

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { retryAfterSeconds?: number; fields?: { path: string; message: string }[] } = {},
  ) {
    super(message);
    this.statusCode = statusByCode[code];
  }
}
