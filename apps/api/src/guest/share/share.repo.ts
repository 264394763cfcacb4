// The ticket_shares rows: a ticket's active shares, and the writes of the share calls. A
// stopped share keeps its row (removedAt set) as a tombstone, so its link answers "Pass No
// Longer Shared" rather than "not found".
import { and, asc, count, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { ticketShares } from '@boardwalk/db/schema';
import { rewriteSubjects } from '../../integrations/email/outbox.repo.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { iso, isoOrNull, namesPerson, ownBarcodes, type Eraser, type Person } from '../../platform/privacy.ts';
import type { ShareRow } from '../ticket/ticket.repo.ts';

const shareColumns = {
  id: ticketShares.shareId,
  firstName: ticketShares.firstName,
  lastName: ticketShares.lastName,
  email: ticketShares.email,
  phone: ticketShares.phone,
  salesforceId: ticketShares.salesforceId,
};
/** A stored share: the ticket core's share row without its direct link (the share calls add it) and language. */
export type StoredShare = Omit<ShareRow, 'directLink' | 'language'>;

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

/**
 * The language of a share's guest (the guest page's switch): true when it changed, false when
 * it was that already, null when the ticket has no such active share.
 */
export async function setShareLanguage(
  db: Executor,
  opts: { barcode: string; shareId: string },
  language: string,
): Promise<boolean | null> {
  const [row] = await db
    .select({ language: ticketShares.language })
    .from(ticketShares)
    .where(and(active(opts.barcode), eq(ticketShares.shareId, opts.shareId)))
    .for('update');
  if (!row) return null;
  if (row.language === language) return false;
  await db
    .update(ticketShares)
    .set({ language })
    .where(and(active(opts.barcode), eq(ticketShares.shareId, opts.shareId)));
  return true;
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
    language: string;
  },
): Promise<StoredShare> {
  const [row] = await db.insert(ticketShares).values(values).returning(shareColumns);
  return row!;
}

export async function updateShare(
  db: Executor,
  opts: { barcode: string; shareId: string },
  values: { firstName: string; lastName: string; email: string; phone: string | null; salesforceId: string | null; language: string },
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

const sharedPerson = (row: typeof ticketShares.$inferSelect) => ({
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone,
});

/** The sharesMade section: the shares of the person's own tickets, with whom they shared. */
export async function findSharesMadeBy(db: Executor, person: Person): Promise<PrivacySections['sharesMade']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const rows = await db.select().from(ticketShares).where(inArray(ticketShares.barcode, barcodes)).orderBy(asc(ticketShares.createdAt));
  return rows.map((row) => ({
    shareId: row.shareId,
    barcode: row.barcode,
    sharedWith: sharedPerson(row),
    createdAt: iso(row.createdAt),
    stoppedAt: isoOrNull(row.removedAt),
  }));
}

/** The sharesReceived section: shares of other guests' tickets made to the person. */
export async function findSharesMadeTo(db: Executor, person: Person): Promise<PrivacySections['sharesReceived']> {
  const rows = await db
    .select()
    .from(ticketShares)
    .where(namesPerson(person, { email: ticketShares.email, phone: ticketShares.phone }))
    .orderBy(asc(ticketShares.createdAt));
  return rows.map((row) => ({
    shareId: row.shareId,
    barcode: row.barcode,
    person: sharedPerson(row),
    crmId: row.salesforceId,
    createdAt: iso(row.createdAt),
    stoppedAt: isoOrNull(row.removedAt),
  }));
}

/** A share invitation's subject (shareMail): who, then the rest. */
const INVITATION_SUBJECT = /^.+( shared a .+ ticket with you)$/;

/**
 * Erasure: the shares made to the person stop (as Stop Sharing does: their link answers "Pass
 * No Longer Shared", their wallet passes are voided) and name nobody. Shares the person made
 * keep working for the people they were made to; the owner's name they show is the
 * registration's, which its own erasure empties. The invitations those shares mailed named the
 * owner in their subject, which the outbox keeps after sending: they now say "A guest" (a
 * recipient of shares from two owners loses both names: erring towards erasure).
 */
export const shareErasure: Eraser = {
  category: 'shares',
  async erase(tx, person, changes) {
    const rows = await tx
      .update(ticketShares)
      .set({
        removedAt: sql`coalesce(${ticketShares.removedAt}, now())`,
        firstName: '',
        lastName: '',
        email: '',
        phone: null,
        salesforceId: null,
      })
      .where(namesPerson(person, { email: ticketShares.email, phone: ticketShares.phone }))
      .returning({ barcode: ticketShares.barcode });
    const own = ownBarcodes(person);
    if (own.length > 0)
      await rewriteSubjects(tx, {
        to: tx.select({ email: ticketShares.email }).from(ticketShares).where(inArray(ticketShares.barcode, own)),
        pattern: INVITATION_SUBJECT.source,
        replacement: 'A guest\\1',
      });
    await changes.publish(
      tx,
      TICKET_CHANGED,
      rows.map((row) => row.barcode),
    );
    return rows.length;
  },
};
