// Reads of the gate system's wristband lookup: the ticket a band is actively bound to. The
// bindings are written by the guest's activation (guest/wristband) and staff deactivation.
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { pickColumns } from '@boardwalk/db/sql';
import { tickets, wristbandBindings } from '@boardwalk/db/schema';

/** The band's active binding with its ticket; null when the band is unknown or deactivated. */
export async function findActiveBindingWithTicket(db: Executor, wristbandBarcode: string) {
  const rows = await db
    .select({
      ...pickColumns(wristbandBindings, 'wristbandBarcode', 'activatedAt'),
      ...pickColumns(tickets, 'barcode', 'orderId', 'product', 'expires', 'redeemed', 'refunded'),
    })
    .from(wristbandBindings)
    .innerJoin(tickets, eq(tickets.barcode, wristbandBindings.barcode))
    .where(and(eq(wristbandBindings.wristbandBarcode, wristbandBarcode), isNull(wristbandBindings.deactivatedAt)))
    .limit(1);
  return rows[0] ?? null;
}
