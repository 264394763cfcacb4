// Reads and writes behind Apple Wallet passes: the wallet_passes row of a ticket or of a
// loyalty member (its stable serial number, the hash of what its pass shows and the update
// tag; a removed member's card voided), the hashes of the authentication tokens handed out
// in passes before a pass's token was derived from its serial number, and the devices
// registered through the PassKit web service.
import { and, desc, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, tickets, walletPassTokens, walletPasses } from '@boardwalk/db/schema';

/**
 * The update tag Apple devices send back as passesUpdatedSince: updatedAt in microseconds
 * since the epoch, the column's own precision, so a tag never hides a later change.
 */
const tagOf = (column: typeof walletPasses.updatedAt) => sql<string>`floor(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * The next update tag: now, and always in a later second than the previous one, so a device
 * that fetched within the same second (Last-Modified has whole seconds) is never answered 304.
 */
const nextUpdatedAt = sql`greatest(now(), date_trunc('second', ${walletPasses.updatedAt}) + interval '1 second')`;

/** Whose pass a wallet_passes row is: a ticket's or a loyalty member's. */
export type PassHolder = { barcode: string } | { loyaltyAccountId: string };
/** The unique column that names the holder, the conflict target of an upsert. */
export const holderColumn = (holder: PassHolder) => ('barcode' in holder ? walletPasses.barcode : walletPasses.loyaltyAccountId);

/**
 * Records a generated pass: the holder's wallet_passes row (created on the first pass; the
 * update tag moves only when what the pass shows changed). Nothing else is written: every
 * download of a pass carries the same token, derived from its serial number.
 * A conflict never touches googleIssued, which Google Wallet sets on the same row.
 */
export async function saveApplePass(db: Executor, values: { holder: PassHolder; contentHash: string }) {
  const [row] = await db
    .insert(walletPasses)
    .values({ ...values.holder, contentHash: values.contentHash })
    .onConflictDoUpdate({
      target: holderColumn(values.holder),
      // A ticket's pass is generated again only before any device has it; a member's card can
      // be added on another device while others have it: its stored content stays what they
      // were shown, for the account's change job to compare and push.
      set:
        'barcode' in values.holder
          ? {
              contentHash: values.contentHash,
              updatedAt: sql`case when ${walletPasses.contentHash} is distinct from excluded.content_hash then ${nextUpdatedAt} else ${walletPasses.updatedAt} end`,
            }
          : { contentHash: sql`coalesce(${walletPasses.contentHash}, excluded.content_hash)` },
    })
    .returning({ serialNumber: walletPasses.serialNumber });
  if (!row) throw new Error('wallet_passes upsert returned no row');
  return row.serialNumber;
}

/** The pass with this serial number: a ticket's (barcode, order id), a member's, or a voided member card (neither). */
export async function findPassBySerialNumber(db: Executor, serialNumber: string) {
  const rows = await db
    .select({
      barcode: tickets.barcode,
      orderId: tickets.orderId,
      loyaltyAccountId: walletPasses.loyaltyAccountId,
      serialNumber: walletPasses.serialNumber,
      updatedAt: walletPasses.updatedAt,
      voidedAt: walletPasses.voidedAt,
    })
    .from(walletPasses)
    .leftJoin(tickets, eq(tickets.barcode, walletPasses.barcode))
    .where(eq(walletPasses.serialNumber, serialNumber))
    .limit(1);
  return rows[0] ?? null;
}

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

/** Registers a device for a pass: 'created', or 'updated' when it was registered already. */
export async function upsertDeviceRegistration(
  db: Executor,
  values: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string },
): Promise<'created' | 'updated'> {
  const [row] = await db
    .insert(appleDeviceRegistrations)
    .values(values)
    .onConflictDoUpdate({
      target: [appleDeviceRegistrations.deviceLibraryIdentifier, appleDeviceRegistrations.serialNumber],
      set: { pushToken: values.pushToken, updatedAt: sql`now()` },
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
  const tag = tagOf(walletPasses.updatedAt);
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

/** Of these barcodes, the tickets an Apple pass was generated for, with their order id. */
export async function findApplePasses(db: Executor, barcodes: string[]) {
  if (barcodes.length === 0) return [];
  return db
    .select({
      barcode: walletPasses.barcode,
      serialNumber: walletPasses.serialNumber,
      contentHash: walletPasses.contentHash,
      orderId: tickets.orderId,
    })
    .from(walletPasses)
    .innerJoin(tickets, eq(tickets.barcode, walletPasses.barcode))
    .where(and(inArray(walletPasses.barcode, barcodes), isNotNull(walletPasses.contentHash)));
}

/** Stores what the pass now shows and moves its update tag; false when it was already so. */
export async function updateContentHash(db: Executor, serialNumber: string, contentHash: string): Promise<boolean> {
  const rows = await db
    .update(walletPasses)
    .set({ contentHash, updatedAt: nextUpdatedAt })
    .where(and(eq(walletPasses.serialNumber, serialNumber), sql`${walletPasses.contentHash} is distinct from ${contentHash}`))
    .returning({ serialNumber: walletPasses.serialNumber });
  return rows.length > 0;
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
 * Voids the member's card (in the removal's transaction, before the account goes): the row
 * names no holder any more and its update tag moves, so that devices fetch the voided card.
 * What Apple devices and Google were last told is forgotten (both hashes cleared): the
 * voided card is compared and delivered like any change. Null when the member has no card.
 */
export async function voidLoyaltyPass(db: Executor, loyaltyAccountId: string) {
  const [row] = await db
    .update(walletPasses)
    .set({ loyaltyAccountId: null, voidedAt: sql`now()`, contentHash: null, googleContentHash: null, updatedAt: nextUpdatedAt })
    .where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId))
    .returning({ serialNumber: walletPasses.serialNumber });
  return row ?? null;
}

/** What the card jobs compare and update of a member card's row. */
const memberCardColumns = {
  serialNumber: walletPasses.serialNumber,
  contentHash: walletPasses.contentHash,
  googleIssued: walletPasses.googleIssued,
  googleContentHash: walletPasses.googleContentHash,
};

/** A voided member card by its serial number (null when not voided or unknown). */
export async function findVoidedPass(db: Executor, serialNumber: string) {
  const rows = await db
    .select(memberCardColumns)
    .from(walletPasses)
    .where(and(eq(walletPasses.serialNumber, serialNumber), isNotNull(walletPasses.voidedAt)));
  return rows[0] ?? null;
}

/** The loyalty member's pass, when one was generated (Apple) or its Google link handed out. */
export async function findLoyaltyPass(db: Executor, loyaltyAccountId: string) {
  const rows = await db.select(memberCardColumns).from(walletPasses).where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId));
  return rows[0] ?? null;
}

export async function findDeviceRegistration(db: Executor, deviceLibraryIdentifier: string, serialNumber: string) {
  const rows = await db
    .select({ pushToken: appleDeviceRegistrations.pushToken })
    .from(appleDeviceRegistrations)
    .where(
      and(
        eq(appleDeviceRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
        eq(appleDeviceRegistrations.serialNumber, serialNumber),
      ),
    );
  return rows[0] ?? null;
}

export async function findDeviceRegistrations(db: Executor, serialNumber: string) {
  return db
    .select({ deviceLibraryIdentifier: appleDeviceRegistrations.deviceLibraryIdentifier, pushToken: appleDeviceRegistrations.pushToken })
    .from(appleDeviceRegistrations)
    .where(eq(appleDeviceRegistrations.serialNumber, serialNumber));
}

/** Every ticket with a pass in a wallet (Apple generated, or a Google link handed out), in pages. */
export async function findBarcodesWithPasses(db: Executor, after: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ barcode: tickets.barcode })
    .from(walletPasses)
    .innerJoin(tickets, eq(tickets.barcode, walletPasses.barcode))
    .where(
      and(
        sql`(${walletPasses.contentHash} is not null or ${walletPasses.googleIssued})`,
        after === null ? undefined : sql`${walletPasses.barcode} > ${after}`,
      ),
    )
    .orderBy(walletPasses.barcode)
    .limit(limit);
  return rows.map((r) => r.barcode);
}
