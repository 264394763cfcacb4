// The purchases a claim names, share-locked (a feed refunding or cancelling one waits for the
// claim), each kind's with the claim's state read in the same statement (claimStateColumns).
import { sql } from 'drizzle-orm';
import { preparedPerSession } from '@boardwalk/db/prepared';
import { lockReservation } from '../integrations/hotel/reservations.repo.ts';
import { lockChecksByNumberOrCode } from '../integrations/pos/checks.repo.ts';
import { lockOrderTickets } from '../integrations/ticketing/ticket-lock.repo.ts';
import { claimStateColumns } from './loyalty.repo.ts';

/**
 * Rendered once (packages/db/src/prepared.ts). Their values: `code`, what the guest or staff
 * member typed or scanned, and `accountId`, the claiming account's.
 */
const placeholder = { code: sql.placeholder('code'), accountId: sql.placeholder('accountId') };
export const lockedPurchases = {
  orderTickets: preparedPerSession((db) =>
    lockOrderTickets(db, { orderId: placeholder.code }, claimStateColumns(placeholder.accountId, 'ticket')).prepare('claim_order_tickets'),
  ),
  scannedTickets: preparedPerSession((db) =>
    lockOrderTickets(db, { barcode: placeholder.code }, claimStateColumns(placeholder.accountId, 'ticket')).prepare(
      'claim_scanned_tickets',
    ),
  ),
  checks: preparedPerSession((db) =>
    lockChecksByNumberOrCode(db, placeholder.code, claimStateColumns(placeholder.accountId, 'food-and-beverage')).prepare('claim_checks'),
  ),
  reservation: preparedPerSession((db) =>
    lockReservation(db, placeholder.code, claimStateColumns(placeholder.accountId, 'hotel')).prepare('claim_reservation'),
  ),
};
