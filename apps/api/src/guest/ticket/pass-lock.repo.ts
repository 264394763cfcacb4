// The lock an erasure leaves on an activated season pass: the photo is the gate's proof of who
// holds the pass, so once the holder's data (photo, name) is erased, no new photo or name goes
// on it until staff lift the lock (the Privacy tab), with the guest in front of them.
import { and, eq, inArray } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { passLocks, tickets } from '@boardwalk/db/schema';
import { iso, ownBarcodes, type Person } from '../../platform/privacy.ts';
import { isPassActivatedSql } from './ticket.repo.ts';

/** Why a pass is locked. */
export type PassLockReason = 'erasure';

/** Locks the activated season passes among these barcodes (a lock already there stays as it was). */
export async function lockActivatedPasses(tx: Executor, barcodes: string[], reason: PassLockReason): Promise<string[]> {
  if (barcodes.length === 0) return [];
  const activated = await tx
    .select({ barcode: tickets.barcode })
    .from(tickets)
    .where(and(inArray(tickets.barcode, barcodes), eq(tickets.isPassholder, true), isPassActivatedSql(tickets)))
    // Held to the erasure's end: a write to the pass checking its lock (isPassLockedForWrite) waits for it.
    .for('update');
  if (activated.length === 0) return [];
  const rows = await tx
    .insert(passLocks)
    .values(activated.map(({ barcode }) => ({ barcode, reason })))
    .onConflictDoNothing({ target: passLocks.barcode })
    .returning({ barcode: passLocks.barcode });
  return rows.map((r) => r.barcode);
}

/**
 * Inside a write of a name or a photo to the pass: waits for an erasure locking it (it holds the
 * ticket's row), then answers whether the pass is locked. The check before the transaction
 * answers at once; this one closes the gap between the two.
 */
export async function isPassLockedForWrite(tx: Executor, barcode: string): Promise<boolean> {
  await tx.select({ barcode: tickets.barcode }).from(tickets).where(eq(tickets.barcode, barcode)).for('share');
  const [row] = await tx.select({ barcode: passLocks.barcode }).from(passLocks).where(eq(passLocks.barcode, barcode)).limit(1);
  return row !== undefined;
}

/** Lifts the lock; answers it as it was, or null when the pass was not locked. */
export async function liftPassLock(tx: Executor, barcode: string) {
  const [row] = await tx.delete(passLocks).where(eq(passLocks.barcode, barcode)).returning();
  return row ?? null;
}

/** The passLocks section: the locks on the person's own tickets (why, since when). */
export async function findPassLocksOfPerson(db: Executor, person: Person): Promise<PrivacySections['passLocks']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const rows = await db.select().from(passLocks).where(inArray(passLocks.barcode, barcodes));
  return rows.map((row) => ({ barcode: row.barcode, reason: row.reason as PassLockReason, lockedAt: iso(row.lockedAt) }));
}
