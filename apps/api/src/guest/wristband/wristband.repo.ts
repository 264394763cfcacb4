// The wristband_bindings table: which band a guest bound to which ticket. One band binds once,
// ever (a unique constraint); a ticket has at most one active band (a partial unique index);
// staff deactivate a lost band, after which its ticket may bind another.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { wristbandBindings } from '@boardwalk/db/schema';
import { qualified, ticketExpiresSql } from '../../integrations/ticketing/tickets.repo.ts';
import { iso, isoOrNull, ownBarcodes, type Person } from '../../platform/privacy.ts';

export type WristbandBindingRow = typeof wristbandBindings.$inferSelect;

/** The binding of this band (active or deactivated) with its ticket's expiry (null once the feed dropped the ticket), or null. */
export async function findBindingOfBand(db: Executor, wristbandBarcode: string) {
  const rows = await db
    .select({ binding: wristbandBindings, expires: ticketExpiresSql(qualified(wristbandBindings.barcode)) })
    .from(wristbandBindings)
    .where(eq(wristbandBindings.wristbandBarcode, wristbandBarcode))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Binds the band to the ticket; null when the band was ever bound or the ticket already has an
 * active band. ON CONFLICT DO NOTHING covers both the constraint and the partial index, so of
 * two concurrent activations one inserts and the other (after waiting for it) gets null.
 */
export async function insertBinding(
  db: Executor,
  values: { wristbandBarcode: string; barcode: string; orderId: string },
): Promise<WristbandBindingRow | null> {
  const rows = await db.insert(wristbandBindings).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

/** The binding with this id, locked until the transaction ends; null when there is none. */
export async function findBindingForUpdate(db: Executor, id: string): Promise<WristbandBindingRow | null> {
  const rows = await db.select().from(wristbandBindings).where(eq(wristbandBindings.id, id)).limit(1).for('update');
  return rows[0] ?? null;
}

/** Deactivates an active binding; null when it was already deactivated (or is gone). */
export async function deactivateBinding(db: Executor, id: string, by: string): Promise<WristbandBindingRow | null> {
  const rows = await db
    .update(wristbandBindings)
    .set({ deactivatedAt: sql`now()`, deactivatedBy: by })
    .where(and(eq(wristbandBindings.id, id), isNull(wristbandBindings.deactivatedAt)))
    .returning();
  return rows[0] ?? null;
}

/** The wristbands section: the bands bound to the person's own tickets. */
export async function findWristbandsOfPerson(db: Executor, person: Person): Promise<PrivacySections['wristbands']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const rows = await db
    .select()
    .from(wristbandBindings)
    .where(inArray(wristbandBindings.barcode, barcodes))
    .orderBy(asc(wristbandBindings.activatedAt));
  return rows.map((row) => ({
    wristbandBarcode: row.wristbandBarcode,
    barcode: row.barcode,
    activatedAt: iso(row.activatedAt),
    deactivatedAt: isoOrNull(row.deactivatedAt),
  }));
}
