import { z } from 'zod/mini';
import { describe } from './describe.ts';

/**
 * Every error code the API answers with, and its HTTP status. The server throws them
 * (apps/api/src/platform/errors.ts); clients branch on them, never on bare statuses.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  REGISTER_FAILED: 400,
  UNPROCESSABLE_IMAGE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ORDER_NOT_FOUND: 404,
  NOT_FOUND: 404,
  /** A signed token (a ticket share's, a wristband activation's) past its time: 408. */
  TOKEN_EXPIRED: 408,
  CONFLICT: 409,
  PASS_NO_LONGER_SHARED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  /** A system Boardwalk needs for the call cannot be reached now (Google's root keys for a Wallet callback). */
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);

/** The code an answer without a contract code stands for, by its status (a proxy's 503, Fastify's 400s). */
export function errorCodeForStatus(status: number): ErrorCode | null {
  if (status === 404) return 'NOT_FOUND';
  if (status === 400) return 'VALIDATION_FAILED';
  const entry = Object.entries(ERROR_STATUS).find(([, s]) => s === status);
  return entry ? (entry[0] as ErrorCode) : status >= 500 ? 'INTERNAL' : null;
}

/** The one error shape every 4xx/5xx answer of the API carries. */
export const apiError = z.object({
  statusCode: z.number().check(z.int()),
  error: describe(z.string(), 'A stable code, e.g. ORDER_NOT_FOUND or VALIDATION_FAILED'),
  message: describe(z.string(), 'A sentence fit to show a person'),
  fields: describe(
    z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    'One entry per bad field, for validation failures',
  ),
  reason: describe(
    z.optional(z.string()),
    'Why, finer than the code, for a guest page to word in its own language (e.g. WRISTBAND_DEACTIVATED); the routes that send one name theirs',
  ),
  params: describe(
    z.optional(z.record(z.string(), z.nullable(z.union([z.string(), z.number()])))),
    "The reason's values (e.g. validThrough: 2026-12-31)",
  ),
});
/** An error answer's reason and its values (ApiError's reason and params), as the server sets them. */
export type ErrorReason = Pick<ApiError, 'reason' | 'params'>;

/** Which of a feature's refusals (its reasons by key: WRISTBAND_REFUSALS, ...) an answer's reason names. */
export const refusalOf = <K extends string>(refusals: Record<K, string>, reason: string | undefined): K | undefined =>
  (Object.keys(refusals) as K[]).find((key) => refusals[key] === reason);
export type ApiError = z.infer<typeof apiError>;

/** Guest-facing texts the server answers with, word for word as the guest screens show them. */
export const guestMessages = {
  orderNotFound: 'Unable to locate order',
  registerFailed: 'Unable to register',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  passNoLongerShared: 'Pass No Longer Shared',
  /** 409 for a ticket already bound to a wallet, naming SUPPORT_EMAIL. */
  alreadyInWallet: (email: string) => `This pass has already been added to a wallet. Please contact ${email} for assistance.`,
} as const;
