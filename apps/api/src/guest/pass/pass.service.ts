// The guest pass (POST /api/login/, POST /api/register/): the ticket core's lookup, and
// saving a guest's registration.
import { TEST_PASS_ORDER_ID, type LoginRequest, type PassOrder, type RegisterRequest } from '@boardwalk/contract/pass';
import type { Executor } from '@boardwalk/db/client';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { findPassByBarcode } from '../ticket/ticket.repo.ts';
import { notFound, type Caller, type TicketCore, type TicketRequest } from '../ticket/ticket.service.ts';
import { ticketTokens } from '../ticket/ticket-tokens.service.ts';
import { upsertRegistration } from './pass.repo.ts';

/** What the pass feature is built with, once (pass.routes.ts). */
export interface PassDeps {
  db: Executor;
  tickets: TicketCore;
  keys: Keys;
  changes: ChangeBus;
}

/**
 * The order object as login and register answer it: with the tokens this view of the ticket
 * may use and, for a Stored Value Card's own guest, its balance page (one more query, only then).
 */
async function answer(deps: PassDeps, order: PassOrder): Promise<PassOrder> {
  const [tokens, barcodeHash] = await Promise.all([ticketTokens(deps.keys, order), deps.tickets.orderBarcodeHash(order)]);
  return { ...order, ...tokens, barcodeHash };
}

/** POST /api/login/ */
export async function lookupPass(deps: PassDeps, request: Caller & LoginRequest): Promise<PassOrder> {
  if (!request.hashUrl && request.orderId === TEST_PASS_ORDER_ID) {
    return deps.tickets.findTestPassOrder({ clientAddress: request.clientAddress, barcode: request.barcode as string });
  }
  const { row, shareId } = await deps.tickets.find(request as Caller & TicketRequest);
  return answer(deps, deps.tickets.toPassOrder(row, shareId));
}

/** POST /api/register/: saves what the guest entered; the ticketing feed never overwrites it. */
export async function registerPass(deps: PassDeps, request: Caller & RegisterRequest & { phone: string }): Promise<PassOrder> {
  const { orderId, barcode } = request;
  await deps.tickets.find({ clientAddress: request.clientAddress, orderId, barcode });
  await deps.db.transaction(async (tx) => {
    await upsertRegistration(tx, {
      barcode,
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email,
      phone: request.phone,
      optInEmailMarketing: request.optInEmailMarketing ?? false,
      optInSmsMarketing: request.optInSMSMarketing ?? false,
    });
    // The holder's name on passes already in wallets.
    await deps.changes.publish(tx, TICKET_CHANGED, [barcode]);
  });
  const row = await findPassByBarcode(deps.db, { orderId, barcode });
  if (!row) throw notFound();
  return answer(deps, deps.tickets.toPassOrder(row));
}
