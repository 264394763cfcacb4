// The stored-value page's links (stored_value_links): a Stored Value Card's barcodeHash and
// the ticket it names. A keyed hash cannot be reversed, so the pair is kept when a link is
// handed out (the voucher's QR code, the order object) and read by POST /api/stored-value/.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { preparedPerSession } from '@boardwalk/db/prepared';
import { storedValueLinks, tickets } from '@boardwalk/db/schema';

/** Keeps the pair; a barcode already linked (the same hash: it derives from the barcode) is left as it is. */
export async function insertStoredValueLink(db: Executor, link: { barcodeHash: string; barcode: string }): Promise<void> {
  await db.insert(storedValueLinks).values(link).onConflictDoNothing();
}

const linkLookup = preparedPerSession((db) =>
  db
    .select({ barcode: tickets.barcode, category: tickets.category, credits: tickets.credits, cash: tickets.cash })
    .from(storedValueLinks)
    .innerJoin(tickets, eq(tickets.barcode, storedValueLinks.barcode))
    .where(eq(storedValueLinks.barcodeHash, sql.placeholder('barcodeHash')))
    .limit(1)
    .prepare('find_ticket_by_barcode_hash'),
);

/** The ticket a barcodeHash names (its balance), or null: one primary-key lookup, prepared once per session. */
export async function findTicketByBarcodeHash(db: Executor, barcodeHash: string) {
  const rows = await linkLookup(db).execute({ barcodeHash });
  return rows[0] ?? null;
}

export type StoredValueTicket = NonNullable<Awaited<ReturnType<typeof findTicketByBarcodeHash>>>;
