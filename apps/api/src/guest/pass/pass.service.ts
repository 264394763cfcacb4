// The guest pass (POST /api/login/, POST /api/register/): the ticket core's lookup, and
// saving a guest's registration.
import { TEST_PASS_ORDER_ID, type LoginRequest, type PassOrder, type RegisterRequest } from '@boardwalk/contract/pass';
import type { TicketChanges } from '../../platform/ticket-changes.plugin.ts';
import { findPassByBarcode } from '../ticket/ticket.repo.ts';
import {
  findTestPassOrder,
  findTicket,
  notFound,
  orderBarcodeHash,
  toPassOrder,
  type TicketContext,
  type TicketRequest,
} from '../ticket/ticket.service.ts';
import { ticketTokens } from '../ticket/ticket-tokens.service.ts';
import { upsertRegistration } from './pass.repo.ts';

/**
 * The order object as login and register answer it: with the tokens this view of the ticket
 * may use and, for a Stored Value Card's own guest, its balance page (one more query, only then).
 */
async function answer(ctx: TicketContext, order: PassOrder): Promise<PassOrder> {
  const [tokens, barcodeHash] = await Promise.all([ticketTokens(ctx.keys, order), orderBarcodeHash(ctx, order)]);
  return { ...order, ...tokens, barcodeHash };
}

/** POST /api/login/ */
export async function lookupPass(ctx: TicketContext, request: LoginRequest): Promise<PassOrder> {
  if (!request.hashUrl && request.orderId === TEST_PASS_ORDER_ID) {
    return findTestPassOrder(ctx, request.barcode as string);
  }
  const { row, shareId } = await findTicket(ctx, request as TicketRequest);
  return answer(ctx, toPassOrder(row, ctx, shareId));
}

/** POST /api/register/: saves what the guest entered; the ticketing feed never overwrites it. */
export async function registerPass(
  ctx: TicketContext & { ticketChanges: TicketChanges },
  request: RegisterRequest & { phone: string },
): Promise<PassOrder> {
  const { orderId, barcode } = request;
  await findTicket(ctx, { orderId, barcode });
  await ctx.db.transaction(async (tx) => {
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
    await ctx.ticketChanges.publish(tx, [barcode]);
  });
  const row = await findPassByBarcode(ctx.db, { orderId, barcode });
  if (!row) throw notFound();
  return answer(ctx, toPassOrder(row, ctx));
}
