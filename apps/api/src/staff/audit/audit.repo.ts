// The audit log's writer (every back office change, login and logout, staff loyalty action,
// delivery retry and wristband deactivation): who did what to which record, when, and the
// record before and after. Callers pass API field names with secrets left out; the keys below
// are dropped again here so a password, hash or token never lands.
import { and, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { auditLog } from '@boardwalk/db/schema';
import { countDue, type RetentionRule } from '../../platform/retention.ts';

export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'login'
  | 'login-failed'
  | 'logout'
  | 'retry'
  | 'deactivate'
  // The Loyalty tab's actions beyond create, update and delete.
  | 'claim'
  | 'remove-order'
  | 'adjust'
  | 'mail'
  | 'redeem'
  | 'reverse-redemption'
  // The Privacy tab's: a person's data found and downloaded, or erased.
  | 'export'
  | 'erase'
  // ... and the lock an erasure left on an activated season pass, lifted.
  | 'lift-pass-lock'
  // The Webhooks tab's: a secret rotated, a test message sent, a dead message sent again.
  | 'rotate'
  | 'test'
  | 'resend';

export interface AuditEntry {
  /** Null for a failed login by an unknown username. */
  teamMemberGuid: string | null;
  username: string | null;
  action: AuditAction;
  /** The tab's key (e.g. pass-customizations) or 'session' for logins and logouts. */
  resource: string;
  recordId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Field names never written to the log, whatever the caller passes. */
const SECRET_KEY = /password|token|hash|secret/i;

function withoutSecrets(record: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!record) return null;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !SECRET_KEY.test(key)));
}

export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    teamMemberGuid: entry.teamMemberGuid,
    username: entry.username,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId ?? null,
    before: withoutSecrets(entry.before),
    after: withoutSecrets(entry.after),
  });
}

const keyArray = (keys: string[]) =>
  sql`array[${sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  )}]::text[]`;

/** The before and after without these keys. */
const withoutKeys = (drop: SQL) => ({ before: sql`${auditLog.before} - ${drop}`, after: sql`${auditLog.after} - ${drop}` });

/** Drops these keys from the before and after of every entry about one record (a person erased). */
export async function redactAuditRecords(db: Executor, resource: string, recordId: string, keys: string[]): Promise<number> {
  const rows = await db
    .update(auditLog)
    .set(withoutKeys(keyArray(keys)))
    .where(and(eq(auditLog.resource, resource), eq(auditLog.recordId, recordId)))
    .returning({ id: auditLog.id });
  return rows.length;
}

/**
 * Retention: the entries of `resource` older than RETENTION_AUDIT_DAYS lose these keys (a
 * guest's personal fields) from their before and after; the entries stay. An entry is changed
 * once: a later run finds none of the keys in it.
 */
export function auditRetention(resource: string, keys: string[]): RetentionRule {
  return {
    category: `audit fields (${resource})`,
    days: (r) => r.auditDays,
    async apply(db, cutoff, { dryRun }) {
      const drop = keyArray(keys);
      const due = and(
        eq(auditLog.resource, resource),
        lt(auditLog.at, cutoff),
        or(sql`${auditLog.before} ?| ${drop}`, sql`${auditLog.after} ?| ${drop}`),
      );
      if (dryRun) return countDue(db, auditLog, due);
      const rows = await db.update(auditLog).set(withoutKeys(drop)).where(due).returning({ id: auditLog.id });
      return rows.length;
    },
  };
}
