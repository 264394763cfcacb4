// Reads and writes behind staff login, sessions and permission checks.
import { and, asc, eq, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { permissions, staffSessions, teamMembers } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type SessionRow = typeof staffSessions.$inferSelect;

/** The team member with this username, whatever its case. */
export async function findTeamMemberByUsername(db: Executor, username: string): Promise<TeamMemberRow | null> {
  const [row] = await db
    .select()
    .from(teamMembers)
    .where(sql`lower(${teamMembers.username}) = lower(${username})`)
    .limit(1);
  return row ?? null;
}

export async function insertSession(
  db: Executor,
  values: { teamMemberGuid: string; accessTokenHash: string; startTimestamp: Date; endTimestamp: Date },
): Promise<SessionRow> {
  const [row] = await db.insert(staffSessions).values(values).returning();
  return row!;
}

export interface SessionWithMember {
  sessionGuid: string;
  endTimestamp: Date;
  sessionActive: boolean;
  teamMemberGuid: string;
  username: string;
  accessLevel: number;
  memberActive: boolean;
}

/** The session holding this token hash and its member, in one round trip. */
export async function findSessionByTokenHash(db: Executor, accessTokenHash: string): Promise<SessionWithMember | null> {
  const [row] = await db
    .select({
      sessionGuid: staffSessions.guid,
      endTimestamp: staffSessions.endTimestamp,
      sessionActive: staffSessions.active,
      teamMemberGuid: teamMembers.guid,
      username: teamMembers.username,
      accessLevel: teamMembers.accessLevel,
      memberActive: teamMembers.active,
    })
    .from(staffSessions)
    .innerJoin(teamMembers, eq(teamMembers.guid, staffSessions.teamMemberGuid))
    .where(eq(staffSessions.accessTokenHash, accessTokenHash))
    .limit(1);
  return row ?? null;
}

/** Ends a session now: inactive, and its end time no later than now. */
export async function endSession(db: Executor, sessionGuid: string): Promise<void> {
  await db
    .update(staffSessions)
    .set({ active: false, endTimestamp: sql`least(${staffSessions.endTimestamp}, now())`, updatedAt: sql`now()` })
    .where(eq(staffSessions.guid, sessionGuid));
}

/** A team member's access level; null when there is no such member. */
export async function accessLevelOfMember(db: Executor, guid: string): Promise<number | null> {
  const [row] = await db.select({ accessLevel: teamMembers.accessLevel }).from(teamMembers).where(eq(teamMembers.guid, guid));
  return row?.accessLevel ?? null;
}

/** Ends every open session of a member now, but the one kept (the caller's own, or none). */
export async function endSessionsOfMember(db: Executor, teamMemberGuid: string, keepSessionGuid: string | null): Promise<void> {
  await db
    .update(staffSessions)
    .set({ active: false, endTimestamp: sql`least(${staffSessions.endTimestamp}, now())`, updatedAt: sql`now()` })
    .where(
      and(
        eq(staffSessions.teamMemberGuid, teamMemberGuid),
        eq(staffSessions.active, true),
        keepSessionGuid ? ne(staffSessions.guid, keepSessionGuid) : undefined,
      ),
    );
}

/** True when an active permission for this api and method allows the access level. */
export async function hasPermission(db: Executor, api: string, method: string, accessLevel: number): Promise<boolean> {
  const [row] = await db
    .select({ guid: permissions.guid })
    .from(permissions)
    .where(
      and(
        eq(permissions.api, api),
        eq(permissions.method, method),
        eq(permissions.active, true),
        lte(permissions.minimumAccessLevel, accessLevel),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Every active permission a member of this access level holds, by name. */
export async function permissionsForLevel(db: Executor, accessLevel: number): Promise<{ guid: string; name: string }[]> {
  return db
    .select({ guid: permissions.guid, name: permissions.name })
    .from(permissions)
    .where(and(eq(permissions.active, true), lte(permissions.minimumAccessLevel, accessLevel)))
    .orderBy(asc(permissions.name));
}

// ---- Seeding ----------------------------------------------------------------------------

export type NewPermission = Pick<typeof permissions.$inferInsert, 'name' | 'api' | 'method' | 'minimumAccessLevel'>;

/**
 * Runs fn in a transaction holding a transaction-level advisory lock, so two instances
 * starting on one database seed one after the other.
 */
export async function withSeedLock<T>(db: Executor, key: number, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
    return fn(tx);
  });
}

/** Inserts the permissions not there yet (by name); existing ones keep what staff set. */
export async function insertMissingPermissions(db: Executor, rows: NewPermission[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(permissions)
    .values(rows)
    .onConflictDoNothing({ target: permissions.name })
    .returning({ guid: permissions.guid });
  return inserted.length;
}

/** Gives permissions stored without an API (and method) the ones of their declaration. */
export async function fillMissingPermissionApis(db: Executor, rows: NewPermission[]): Promise<void> {
  for (const row of rows) {
    await db
      .update(permissions)
      .set({ api: row.api, method: row.method })
      .where(and(eq(permissions.name, row.name), isNull(permissions.api)));
  }
}

export async function anyTeamMember(db: Executor): Promise<boolean> {
  const [row] = await db.select({ guid: teamMembers.guid }).from(teamMembers).limit(1);
  return row !== undefined;
}

export async function insertTeamMember(db: Executor, values: typeof teamMembers.$inferInsert): Promise<TeamMemberRow> {
  const [row] = await db.insert(teamMembers).values(values).returning();
  return row!;
}

/** Retention: a staff session goes RETENTION_STAFF_SESSION_DAYS after it ended (its end: logged out or expired). */
export const staffSessionRetention = deleteRule(
  'staff sessions',
  (r) => r.staffSessionDays,
  staffSessions,
  (cutoff) => lt(staffSessions.endTimestamp, cutoff),
);
