// Reads and writes behind Apple's PassKit web service: the devices registered for a pass,
// its update tag, and the hashes of the authentication
// tokens handed out in passes before a pass's token was derived from its serial number.
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, tickets, walletPassTokens, walletPasses } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';
import { microsecondTag, nowOr, stampedAt, uuidArray } from '@boardwalk/db/sql';

/** True when tokenHash is the hash of a token this pass was issued with before tokens were derived. */
export async function isLegacyPassToken(db: Executor, serialNumber: string, tokenHash: string): Promise<boolean> {
  const rows = await db
    .select({ serialNumber: walletPassTokens.serialNumber })
    .from(walletPassTokens)
    .where(and(eq(walletPassTokens.tokenHash, tokenHash), eq(walletPassTokens.serialNumber, serialNumber)))
    .limit(1);
  return rows.length > 0;
}

/** Locks the pass's row until the transaction ends (registrations of one pass one at a time); false when there is none. */
export async function lockPass(db: Executor, serialNumber: string): Promise<boolean> {
  const rows = await db
    .select({ serialNumber: walletPasses.serialNumber })
    .from(walletPasses)
    .where(eq(walletPasses.serialNumber, serialNumber))
    .for('update');
  return rows.length > 0;
}

/**
 * Keeps the pass's `limit` most recently registered devices, `keep` always among them, and
 * removes the other registrations: how many were removed.
 */
export async function trimDeviceRegistrations(db: Executor, serialNumber: string, keep: string, limit: number): Promise<number> {
  const kept = db
    .select({ id: appleDeviceRegistrations.deviceLibraryIdentifier })
    .from(appleDeviceRegistrations)
    .where(eq(appleDeviceRegistrations.serialNumber, serialNumber))
    .orderBy(
      desc(sql`${appleDeviceRegistrations.deviceLibraryIdentifier} = ${keep}`),
      desc(appleDeviceRegistrations.updatedAt),
      desc(appleDeviceRegistrations.createdAt),
      appleDeviceRegistrations.deviceLibraryIdentifier,
    )
    .limit(limit);
  const rows = await db
    .delete(appleDeviceRegistrations)
    .where(and(eq(appleDeviceRegistrations.serialNumber, serialNumber), notInArray(appleDeviceRegistrations.deviceLibraryIdentifier, kept)))
    .returning({ id: appleDeviceRegistrations.deviceLibraryIdentifier });
  return rows.length;
}

/** Registers a device for a pass (at `at`, a past time: the demo's history): 'created', or 'updated' when it was registered already. */
export async function upsertDeviceRegistration(
  db: Executor,
  values: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string },
  at?: Date,
): Promise<'created' | 'updated'> {
  const [row] = await db
    .insert(appleDeviceRegistrations)
    .values({ ...values, ...stampedAt(at) })
    .onConflictDoUpdate({
      target: [appleDeviceRegistrations.deviceLibraryIdentifier, appleDeviceRegistrations.serialNumber],
      set: { pushToken: values.pushToken, updatedAt: nowOr(at) },
    })
    // xmax is 0 for a row this statement inserted, the updating transaction otherwise.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return row?.inserted ? 'created' : 'updated';
}

export async function deleteDeviceRegistration(db: Executor, deviceLibraryIdentifier: string, serialNumber: string): Promise<boolean> {
  return (await deleteDeviceRegistrations(db, deviceLibraryIdentifier, [serialNumber])) > 0;
}

/**
 * The serial numbers of the passes this device registered, updated after the tag (all of
 * them without one), and the newest tag among them; voided ones flagged.
 */
export async function findUpdatedSerialNumbers(db: Executor, deviceLibraryIdentifier: string, since: string | undefined) {
  const tag = microsecondTag(walletPasses.updatedAt);
  const rows = await db
    .select({ serialNumber: walletPasses.serialNumber, tag, voided: sql<boolean>`${walletPasses.voidedAt} is not null` })
    .from(appleDeviceRegistrations)
    .innerJoin(walletPasses, eq(walletPasses.serialNumber, appleDeviceRegistrations.serialNumber))
    .where(
      and(
        eq(appleDeviceRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
        since === undefined ? undefined : sql`${tag}::bigint > ${since}::bigint`,
      ),
    );
  return rows;
}

/** Removes this device's registrations for these passes: how many there were. */
export async function deleteDeviceRegistrations(db: Executor, deviceLibraryIdentifier: string, serialNumbers: string[]): Promise<number> {
  if (serialNumbers.length === 0) return 0;
  const rows = await db
    .delete(appleDeviceRegistrations)
    .where(
      and(
        eq(appleDeviceRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
        inArray(appleDeviceRegistrations.serialNumber, serialNumbers),
      ),
    )
    .returning({ serialNumber: appleDeviceRegistrations.serialNumber });
  return rows.length;
}

/**
 * The push tokens of these registrations (device and pass), in one statement: keyed
 * `${device} ${serial}`; a removed one is absent. The serial numbers come again as an array
 * (uuidArray): PostgreSQL then probes the pass's index instead of reading every registration.
 */
export async function findPushTokens(db: Executor, registrations: { deviceLibraryIdentifier: string; serialNumber: string }[]) {
  const wanted = JSON.stringify(registrations.map((r) => ({ d: r.deviceLibraryIdentifier, s: r.serialNumber })));
  const rows = await db
    .select({
      deviceLibraryIdentifier: appleDeviceRegistrations.deviceLibraryIdentifier,
      serialNumber: appleDeviceRegistrations.serialNumber,
      pushToken: appleDeviceRegistrations.pushToken,
    })
    .from(appleDeviceRegistrations)
    .where(
      sql`(${appleDeviceRegistrations.deviceLibraryIdentifier}, ${appleDeviceRegistrations.serialNumber}) in
        (select d, s from jsonb_to_recordset(${wanted}::jsonb) as w(d text, s uuid))
        and ${appleDeviceRegistrations.serialNumber} = any(${uuidArray(registrations.map((r) => r.serialNumber))})`,
    );
  return new Map(rows.map((r) => [`${r.deviceLibraryIdentifier} ${r.serialNumber}`, r.pushToken]));
}

export async function findDeviceRegistrations(db: Executor, serialNumber: string) {
  return db
    .select({ deviceLibraryIdentifier: appleDeviceRegistrations.deviceLibraryIdentifier, pushToken: appleDeviceRegistrations.pushToken })
    .from(appleDeviceRegistrations)
    .where(eq(appleDeviceRegistrations.serialNumber, serialNumber));
}

/**
 * Retention: an Apple device registration goes RETENTION_DEVICE_DAYS after its pass was voided
 * or its ticket expired (nothing will be pushed to it again).
 */
export const deviceRetention = deleteRule(
  'device registrations',
  (r) => r.deviceDays,
  appleDeviceRegistrations,
  (cutoff) => sql`exists (select 1 from ${walletPasses} left join ${tickets} on ${tickets.barcode} = ${walletPasses.barcode}
    where ${walletPasses.serialNumber} = ${appleDeviceRegistrations.serialNumber}
      and (${walletPasses.voidedAt} < ${cutoff} or ${tickets.expires} < ${cutoff}))`,
);

/** Removes every registration holding one of these push tokens (APNs answered 410: the device has no pass of ours any more). */
export async function deleteRegistrationsOfTokens(db: Executor, pushTokens: string[]): Promise<number> {
  if (pushTokens.length === 0) return 0;
  const rows = await db
    .delete(appleDeviceRegistrations)
    .where(inArray(appleDeviceRegistrations.pushToken, pushTokens))
    .returning({ serialNumber: appleDeviceRegistrations.serialNumber });
  return rows.length;
}
