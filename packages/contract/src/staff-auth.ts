// Staff login and sessions: a username (email) and password give a session whose access token
// is sent as a bearer token on every admin call.
import { z } from 'zod';
import { printable } from './pass.ts';

/** Texts the server answers staff with: a failed login, an expired session (401), a missing permission (403). */
export const staffMessages = {
  unableToLogin: 'Unable to Login',
  sessionExpired: 'Session Expired, Logging Out.',
  forbidden: 'You do not have permission to do that.',
} as const;

export const STAFF_USERNAME_MAX = 254;
/** argon2 takes any length; a cap keeps a huge body from costing a hash. */
export const STAFF_PASSWORD_MAX = 1024;

export const staffUsername = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(STAFF_USERNAME_MAX, `Email must be at most ${STAFF_USERNAME_MAX} characters`)
  .refine(printable, 'Email must be printable text');

/** Taken as typed (never trimmed): spaces may be part of a password. */
export const staffPassword = z
  .string()
  .min(1, 'Password is required')
  .max(STAFF_PASSWORD_MAX, `Password must be at most ${STAFF_PASSWORD_MAX} characters`)
  .refine(printable, 'Password must be printable text');

/** POST /app/login/ */
export const staffLoginRequest = z.object({
  teamMemberUsername: staffUsername,
  teamMemberPassword: staffPassword,
});
export type StaffLoginRequest = z.infer<typeof staffLoginRequest>;

export const staffPermission = z.object({
  permissionGUID: z.uuid(),
  permissionName: z.string(),
});
export type StaffPermission = z.infer<typeof staffPermission>;

/** 201 answer of POST /app/login/; timestamps are ISO 8601 in UTC (ending in Z). */
export const staffLoginResult = z.object({
  sessionGUID: z.uuid(),
  accessToken: z.string().describe('Bearer token for every admin call; 256 random bits, base64url'),
  teamMemberGUID: z.uuid(),
  teamMemberUsername: z.string(),
  sessionStartTimestamp: z.iso.datetime(),
  sessionEndTimestamp: z.iso.datetime(),
  permissions: z.array(staffPermission).describe('The active permissions the member holds'),
});
export type StaffLoginResult = z.infer<typeof staffLoginResult>;

/** DELETE /app/logout/:sessionGUID */
export const staffLogoutParams = z.object({ sessionGUID: z.uuid('Session id is not valid') });
