// Wristband activation: a guest holding a wristband ticket binds the 16-character code of a
// band to it. The signed wristbandActivateToken of the order object (15 minutes) is the
// credential: it names the ticket, so no order id is sent and no lookup throttle applies.
//   401: the ticket may not be self-activated: not a wristband ticket, excluded, refunded,
//        expired or redeemed (the page shows the redeemed notice for those);
//   403: the ticket already has an active band (or the feed says it is activated), or the band
//        was ever bound (to any ticket; a deactivated band never binds again).
// The binding is its own table, so a later orders feed never undoes it; the order object then
// shows isPassActivated (ticket.repo.ts). Wallet passes do not show activation: nothing to publish.
import { recordEvent } from '../../platform/events.ts';
import { WRISTBAND_REFUSALS, wristbandTexts, validityPeriod, type WristbandActivateBody } from '@boardwalk/contract/wristband';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { parkDate, parkShortDate } from '../../platform/park-time.ts';
import { toPassOrder, type TicketCore } from '../ticket/ticket.service.ts';
import { verifyTicketToken } from '../ticket/ticket-tokens.service.ts';
import { findBindingOfBand, insertBinding } from './wristband.repo.ts';

/** What wristband activation is built with, once (wristband.routes.ts). */
export interface WristbandDeps {
  db: Executor;
  tickets: Pick<TicketCore, 'findPassOfBarcode'>;
  keys: Keys;
  config: Pick<Config, 'defaultPassColors' | 'parkTimezone'>;
}

const unauthorized = () => new AppError('UNAUTHORIZED', wristbandTexts.unauthorized);

/** "through 11/21/26" (the ticket's expiry in the park), or "with no end date". */
const periodOf = (expires: Date | null, deps: WristbandDeps) =>
  validityPeriod(expires ? parkShortDate(expires, deps.config.parkTimezone) : null);

const alreadyActivated = (expires: Date | null, deps: WristbandDeps) =>
  new AppError('FORBIDDEN', wristbandTexts.alreadyActivated(periodOf(expires, deps)), {
    reason: WRISTBAND_REFUSALS.alreadyActivated,
    params: { validThrough: expires ? parkDate(expires, deps.config.parkTimezone) : null },
  });

/** Why this band cannot bind (it was bound before), or null when it never was. */
async function bandRefusal(deps: WristbandDeps, wristbandBarcode: string): Promise<AppError | null> {
  const bound = await findBindingOfBand(deps.db, wristbandBarcode);
  if (!bound) return null;
  if (bound.binding.deactivatedAt) return new AppError('FORBIDDEN', wristbandTexts.deactivated, { reason: WRISTBAND_REFUSALS.deactivated });
  return alreadyActivated(bound.expires, deps);
}

/** POST /api/wristband/activate/: binds the band; answers the validity text ("Valid through 11/21/26"). */
export async function activateWristband(deps: WristbandDeps, request: WristbandActivateBody): Promise<string> {
  const subject = await verifyTicketToken(deps.keys, 'wristband', request.wristbandActivateToken);
  if (subject !== request.barcode) throw unauthorized();
  const row = await deps.tickets.findPassOfBarcode(deps.db, request.barcode);
  if (!row) throw unauthorized();
  const order = toPassOrder(row, deps);
  const expired = row.ticket.expires !== null && row.ticket.expires.getTime() <= Date.now();
  if (!order.isWristband || order.excluded || order.refunded || order.isRedeemed || expired) throw unauthorized();

  const band = await bandRefusal(deps, request.wristbandBarcode);
  if (band) throw band;
  if (order.isPassActivated) throw alreadyActivated(row.ticket.expires, deps);

  const binding = { wristbandBarcode: request.wristbandBarcode, barcode: order.barcode, orderId: row.order.orderId };
  const bound = await deps.db.transaction(async (tx) => {
    const inserted = await insertBinding(tx, binding);
    if (inserted) await recordEvent(tx, 'wristband.activated', `ticket:${binding.barcode}`, binding);
    return inserted;
  });
  // Another activation got there first: of this band (for any ticket) or of this ticket.
  if (!bound) throw (await bandRefusal(deps, request.wristbandBarcode)) ?? alreadyActivated(row.ticket.expires, deps);
  return wristbandTexts.validity(periodOf(row.ticket.expires, deps));
}
