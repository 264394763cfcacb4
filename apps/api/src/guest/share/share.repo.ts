// The ticket_shares rows: a ticket's active shares, and the writes of the share calls. A
// stopped share keeps its row (removedAt set) as a tombstone, so its link answers "Pass No
// Longer Shared" rather than "not found".
import { and, asc, count, eq, gte, isNull } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { ticketShares } from '@boardwalk/db/schema';

const shareColumns = {
  id: ticketShares.shareId,
  firstName: ticketShares.firstName,
  lastName: ticketShares.lastName,
  email: ticketShares.email,
  phone: ticketShares.phone,
  salesforceId: ticketShares.salesforceId,
};
export type StoredShare = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  salesforceId: string | null;
};

const active = (barcode: string) => and(eq(ticketShares.barcode, barcode), isNull(ticketShares.removedAt));

/** The ticket's active shares, oldest first. */
export function findActiveShares(db: Executor, barcode: string): Promise<StoredShare[]> {
  return db.select(shareColumns).from(ticketShares).where(active(barcode)).orderBy(asc(ticketShares.createdAt), asc(ticketShares.shareId));
}

/** One active share of the ticket, or null. */
export async function findActiveShare(db: Executor, opts: { barcode: string; shareId: string }): Promise<StoredShare | null> {
  const rows = await db
    .select(shareColumns)
    .from(ticketShares)
    .where(and(active(opts.barcode), eq(ticketShares.shareId, opts.shareId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function countActiveShares(db: Executor, barcode: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(ticketShares).where(active(barcode));
  return row?.n ?? 0;
}

/**
 * Shares of the ticket started since `since`, stopped ones included: each one sent its mail
 * (a new share, or a new address), so this is the number of share mails the ticket sent.
 */
export async function countSharesStartedSince(db: Executor, barcode: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(ticketShares)
    .where(and(eq(ticketShares.barcode, barcode), gte(ticketShares.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertShare(
  db: Executor,
  values: {
    barcode: string;
    hashUrlHash: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string | null;
    salesforceId?: string | null;
  },
): Promise<StoredShare> {
  const [row] = await db.insert(ticketShares).values(values).returning(shareColumns);
  return row!;
}

export async function updateShare(
  db: Executor,
  opts: { barcode: string; shareId: string },
  values: { firstName: string; lastName: string; email: string; phone: string | null; salesforceId: string | null },
): Promise<StoredShare | null> {
  const rows = await db
    .update(ticketShares)
    .set(values)
    .where(and(active(opts.barcode), eq(ticketShares.shareId, opts.shareId)))
    .returning(shareColumns);
  return rows[0] ?? null;
}

/** Stops an active share (its link and id stop at once); false when it was not active. */
export async function removeShare(db: Executor, opts: { barcode: string; shareId: string }): Promise<boolean> {
  const rows = await db
    .update(ticketShares)
    .set({ removedAt: new Date() })
    .where(and(active(opts.barcode), eq(ticketShares.shareId, opts.shareId)))
    .returning({ id: ticketShares.shareId });
  return rows.length > 0;
}
