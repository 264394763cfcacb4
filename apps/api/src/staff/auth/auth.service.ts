// Staff login, logout and the session check behind every admin route: only a hash of each
// access token is stored, inactive members cannot log in, failed logins are throttled.
import { staffMessages, type StaffLoginRequest, type StaffLoginResult } from '@boardwalk/contract/staff-auth';
import type { Db } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { attempt, type StaffLoginThrottles } from '../../platform/throttle.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { PermissionDeclaration, StaffMethod } from '@boardwalk/contract/staff-tabs';
import {
  endSession,
  findSessionByTokenHash,
  findTeamMemberByUsername,
  hasPermission,
  insertSession,
  permissionsForLevel,
} from './auth.repo.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';

/** Who is calling, set on the request by the staff guards. */
export interface StaffIdentity {
  teamMemberGuid: string;
  username: string;
  accessLevel: number;
  sessionGuid: string;
}

/** The staff member a change is made by: the per-request fact every staff write is audited with. */
export type StaffActor = Pick<StaffIdentity, 'teamMemberGuid' | 'username'>;

/** The audit log's resource name for logins and logouts. */
export const SESSION_RESOURCE = 'session';

/** 256 random bits, base64url (43 characters). */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const HOUR_MS = 3_600_000;

const unableToLogin = () => new AppError('UNAUTHORIZED', staffMessages.unableToLogin);
const sessionExpired = () => new AppError('UNAUTHORIZED', staffMessages.sessionExpired);
const forbidden = () => new AppError('FORBIDDEN', staffMessages.forbidden);

/** What logging in needs, built once when the auth routes register. */
export interface LoginDeps {
  db: Db;
  throttles: StaffLoginThrottles;
  sessionHours: number;
}

/**
 * Checks the username and password; answers a new session. Every failure (unknown username,
 * wrong password, inactive member) is the same 401 after the same argon2 work, and counts
 * against the username and the address; each attempt takes its points before it checks.
 */
export async function login(deps: LoginDeps, request: StaffLoginRequest, clientAddress: string): Promise<StaffLoginResult> {
  const username = request.teamMemberUsername;
  const usernameKey = username.toLowerCase();
  const { perAddress, perUsername } = deps.throttles;
  const member = await attempt([perAddress.of(clientAddress), perUsername.of(usernameKey)], async () => {
    const found = await findTeamMemberByUsername(deps.db, username);
    const passwordOk = await verifyPassword(found?.passwordHash ?? (await dummyPasswordHash()), request.teamMemberPassword);
    if (!found || !passwordOk || !found.active) {
      // The username tried, never the password.
      await recordAudit(deps.db, { teamMemberGuid: found?.guid ?? null, username, action: 'login-failed', resource: SESSION_RESOURCE });
      throw unableToLogin();
    }
    return found;
  });

  const accessToken = newSecret(TOKEN_BYTES);
  const start = new Date();
  const end = new Date(start.getTime() + deps.sessionHours * HOUR_MS);
  const session = await deps.db.transaction(async (tx) => {
    const row = await insertSession(tx, {
      teamMemberGuid: member.guid,
      accessTokenHash: hashSecret(accessToken),
      startTimestamp: start,
      endTimestamp: end,
    });
    await recordAudit(tx, {
      teamMemberGuid: member.guid,
      username: member.username,
      action: 'login',
      resource: SESSION_RESOURCE,
      recordId: row.guid,
      after: {
        sessionGUID: row.guid,
        teamMemberGUID: member.guid,
        sessionStartTimestamp: start.toISOString(),
        sessionEndTimestamp: end.toISOString(),
      },
    });
    return row;
  });
  const held = await permissionsForLevel(deps.db, member.accessLevel);
  return {
    sessionGUID: session.guid,
    accessToken,
    teamMemberGUID: member.guid,
    teamMemberUsername: member.username,
    sessionStartTimestamp: session.startTimestamp.toISOString(),
    sessionEndTimestamp: session.endTimestamp.toISOString(),
    permissions: held.map((p) => ({ permissionGUID: p.guid, permissionName: p.name })),
  };
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer +(\S+)$/i.exec(header.trim()) : null;
  return match ? match[1]! : null;
}

/**
 * The caller of a staff route: 401 'Session Expired, Logging Out.' without a token, or with
 * one that is unknown, past its end time, of an inactive session or of an inactive member.
 */
export async function authenticate(db: Db, authorization: string | undefined): Promise<StaffIdentity> {
  const token = bearerToken(authorization);
  if (!token || !TOKEN_PATTERN.test(token)) throw sessionExpired();
  const found = await findSessionByTokenHash(db, hashSecret(token));
  if (!found || !found.sessionActive || !found.memberActive || found.endTimestamp.getTime() <= Date.now()) throw sessionExpired();
  return { teamMemberGuid: found.teamMemberGuid, username: found.username, accessLevel: found.accessLevel, sessionGuid: found.sessionGuid };
}

/** 403 unless an active permission for api and method allows the member's access level (read now). */
export async function authorize(db: Db, staff: StaffIdentity, api: string, method: StaffMethod): Promise<void> {
  if (!(await hasPermission(db, api, method, staff.accessLevel))) throw forbidden();
}

/** Whether the member holds a permission besides the route's own (a figure or a field shown only to some). */
export const holds = (db: Db, staff: StaffIdentity, { api, method }: PermissionDeclaration) =>
  hasPermission(db, api, method, staff.accessLevel);

/** Ends the caller's own session; another session's id answers 403 and ends nothing. */
export async function logout(db: Db, staff: StaffIdentity, sessionGuid: string): Promise<void> {
  if (sessionGuid !== staff.sessionGuid) throw forbidden();
  await db.transaction(async (tx) => {
    await endSession(tx, sessionGuid);
    await recordAudit(tx, {
      teamMemberGuid: staff.teamMemberGuid,
      username: staff.username,
      action: 'logout',
      resource: SESSION_RESOURCE,
      recordId: sessionGuid,
    });
  });
}
