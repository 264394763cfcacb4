// Test support for the back office: a team member of a given access level, logged in
// through POST /app/login/ as the web app would.
import { randomBytes } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { StaffLoginResult } from '@boardwalk/contract/staff-auth';
import * as schema from '@boardwalk/db/schema';
import type { App } from '../src/app.ts';
import { hashPassword } from '../src/staff/auth/passwords.ts';

export interface LoginAsOptions {
  accessLevel: number;
  /**
   * Names of seeded permissions (e.g. 'Team List') the member must hold: any of them whose
   * minimumAccessLevel is above accessLevel is lowered to it and made active. This changes
   * the permission for every member of the test app.
   */
  permissions?: string[];
  /** Defaults: a unique username and password; active. */
  username?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

export interface StaffLogin {
  token: string;
  teamMemberGuid: string;
  sessionGuid: string;
  username: string;
  password: string;
  /** The login answer as the client receives it. */
  result: StaffLoginResult;
  headers: { authorization: string };
}

/** A hash of this is made once per worker: argon2 takes tens of milliseconds on purpose. */
export const TEST_STAFF_PASSWORD = 'correct horse battery staple';
let defaultHash: Promise<string> | undefined;

/** Inserts an active team member (password hashed with hashPassword); answers its guid. */
export async function createTeamMember(
  app: App,
  options: { accessLevel: number; username?: string; password?: string; firstName?: string; lastName?: string; active?: boolean },
) {
  const password = options.password ?? TEST_STAFF_PASSWORD;
  const passwordHash =
    options.password === undefined ? await (defaultHash ??= hashPassword(TEST_STAFF_PASSWORD)) : await hashPassword(password);
  const username = options.username ?? `staff-${randomBytes(5).toString('hex')}@example.com`;
  const [row] = await app.database.db
    .insert(schema.teamMembers)
    .values({
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? `Member ${options.accessLevel}`,
      internalId: `T-${randomBytes(3).toString('hex')}`,
      username,
      passwordHash,
      accessLevel: options.accessLevel,
      active: options.active ?? true,
    })
    .returning();
  return { teamMemberGuid: row!.guid, username, password };
}

/** Creates a team member and logs in through POST /app/login/; throws unless it answered 201. */
export async function loginAs(app: App, options: LoginAsOptions): Promise<StaffLogin> {
  if (options.permissions?.length) {
    await app.database.db
      .update(schema.permissions)
      .set({ minimumAccessLevel: sql`least(${schema.permissions.minimumAccessLevel}, ${options.accessLevel})`, active: true })
      .where(inArray(schema.permissions.name, options.permissions));
  }
  const member = await createTeamMember(app, options);
  const res = await app.inject({
    method: 'POST',
    url: '/app/login/',
    payload: { teamMemberUsername: member.username, teamMemberPassword: member.password },
  });
  if (res.statusCode !== 201) throw new Error(`loginAs ${res.statusCode}: ${res.body}`);
  const result = res.json<StaffLoginResult>();
  return {
    token: result.accessToken,
    teamMemberGuid: result.teamMemberGUID,
    sessionGuid: result.sessionGUID,
    username: member.username,
    password: member.password,
    result,
    headers: { authorization: `Bearer ${result.accessToken}` },
  };
}
