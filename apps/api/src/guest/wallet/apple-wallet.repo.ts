// Reads and writes behind Apple Wallet passes: the wallet_passes row of a ticket or of a
// loyalty member (its stable serial number, the hash of what its pass shows and the update
// tag), the hashes of the authentication tokens handed out in passes, and the devices
// registered through the PassKit web service.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
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
 * update tag moves only when what the pass shows changed) and the hash of its new token.
 * A conflict never touches googleIssued, which Google Wallet sets on the same row.
 */
export async function saveApplePass(db: Executor, values: { holder: PassHolder; contentHash: string; tokenHash: string }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
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
    await tx.insert(walletPassTokens).values({ tokenHash: values.tokenHash, serialNumber: row.serialNumber });
    return row.serialNumber;
  });
}

/** The pass with this serial number if tokenHash is the hash of one of its tokens: a ticket's (barcode, order id) or a member's. */
export async function findPassByToken(db: Executor, serialNumber: string, tokenHash: string) {
  const rows = await db
    .select({
      barcode: tickets.barcode,
      orderId: tickets.orderId,
      loyaltyAccountId: walletPasses.loyaltyAccountId,
      serialNumber: walletPasses.serialNumber,
      updatedAt: walletPasses.updatedAt,
    })
    .from(walletPassTokens)
    .innerJoin(walletPasses, eq(walletPasses.serialNumber, walletPassTokens.serialNumber))
    .leftJoin(tickets, eq(tickets.barcode, walletPasses.barcode))
    .where(and(eq(walletPassTokens.tokenHash, tokenHash), eq(walletPassTokens.serialNumber, serialNumber)))
    .limit(1);
  return rows[0] ?? null;
}

/** Registers a device for a pass: 'created', or 'updated' when it was registered already. */
export async function upsertDeviceRegistration(
  db: Executor,
  values: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string },
) {
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
  const rows = await db
    .delete(appleDeviceRegistrations)
    .where(
      and(
        eq(appleDeviceRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
        eq(appleDeviceRegistrations.serialNumber, serialNumber),
      ),
    )
    .returning({ serialNumber: appleDeviceRegistrations.serialNumber });
  return rows.length > 0;
}

/**
 * The serial numbers of the passes this device registered, updated after the tag (all of
 * them without one), and the newest tag among them.
 */
export async function findUpdatedSerialNumbers(db: Executor, deviceLibraryIdentifier: string, since: string | undefined) {
  const tag = tagOf(walletPasses.updatedAt);
  const rows = await db
    .select({ serialNumber: walletPasses.serialNumber, tag })
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

/** The loyalty member's pass, when one was generated (Apple) or its Google link handed out. */
export async function findLoyaltyPass(db: Executor, loyaltyAccountId: string) {
  const rows = await db
    .select({
      serialNumber: walletPasses.serialNumber,
      contentHash: walletPasses.contentHash,
      googleIssued: walletPasses.googleIssued,
      googleContentHash: walletPasses.googleContentHash,
    })
    .from(walletPasses)
    .where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId));
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
