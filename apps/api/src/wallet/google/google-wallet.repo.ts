// Reads and writes behind Google Wallet passes: the wallet_passes row of a ticket or of a
// loyalty member (shared with Apple Wallet, which keeps its update tag there too) and its
// googleIssued flag.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { walletPasses } from '@boardwalk/db/schema';
import { holderColumn, passBarcode, ticketPassesQuery, type PassHolder } from '../wallet-passes.repo.ts';

/**
 * The pass's stable serial number, creating its wallet_passes row if missing, and marks
 * a Google link as handed out. Only googleIssued is written on a conflict: the serial
 * number and Apple's update tag (contentHash, updatedAt) are never touched, so Apple and
 * Google can create the row at the same moment.
 */
export async function markGoogleIssued(
  db: Executor,
  holder: PassHolder,
  /** A ticket's object kind (its REST collection): kept from the first link on, since a Google object never changes kind. */
  googleObjectKind: string | null = null,
): Promise<{ serialNumber: string; googleObjectKind: string | null }> {
  const [row] = await db
    .insert(walletPasses)
    .values({ ...holder, googleIssued: true, googleObjectKind })
    .onConflictDoUpdate({
      target: holderColumn(holder),
      // Saved again (the ticket valid again): a pass voided before starts over.
      set:
        'loyaltyAccountId' in holder
          ? { googleIssued: true }
          : {
              googleIssued: true,
              voidReason: null,
              googleObjectKind: sql`coalesce(${walletPasses.googleObjectKind}, excluded.google_object_kind)`,
            },
    })
    .returning({ serialNumber: walletPasses.serialNumber, googleObjectKind: walletPasses.googleObjectKind });
  if (!row) throw new Error('wallet_passes upsert returned no row');
  return row;
}

/** Of these barcodes, the passes whose Google link was handed out (the owner's and shared guests'), with their order id. */
export async function findGoogleIssuedPasses(db: Executor, barcodes: string[]) {
  if (barcodes.length === 0) return [];
  return ticketPassesQuery(db).where(and(inArray(passBarcode, barcodes), eq(walletPasses.googleIssued, true)));
}

/** What Google now shows for this pass's object, and when it last notified the holder (the latest first, the last 24 hours). */
export async function recordGoogleUpdate(db: Executor, serialNumber: string, googleContentHash: string, googleNotifiedAt: Date[]) {
  await db.update(walletPasses).set({ googleContentHash, googleNotifiedAt }).where(eq(walletPasses.serialNumber, serialNumber));
}
