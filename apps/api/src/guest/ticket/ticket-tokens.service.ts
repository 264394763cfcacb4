// The signed tokens of a ticket's order object: the ticketShareToken lets the ticket's own
// guest manage its shares for 30 minutes; the wristbandActivateToken lets the guest bind a band
// to a wristband ticket for 15 minutes. Each names one ticket (its barcode) and one purpose; an
// expired one answers 408.
import { TEST_PASS_ORDER_ID, type PassOrder } from '@boardwalk/contract/pass';
import { shareTexts } from '@boardwalk/contract/share';
import { wristbandTexts } from '@boardwalk/contract/wristband';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';

export const TICKET_TOKENS = {
  share: { purpose: 'ticket-share', ttlSeconds: 30 * 60, expired: shareTexts.expired },
  wristband: { purpose: 'wristband-activate', ttlSeconds: 15 * 60, expired: wristbandTexts.expired },
} as const;
export type TicketTokenKind = keyof typeof TICKET_TOKENS;

/** The ticket's own guest: not a shared view (a share link or a share id), not a test pass. */
const ownGuest = (order: PassOrder) => !order.sharedWith && order.orderId !== '' && order.orderId !== TEST_PASS_ORDER_ID;

/** The ticket's own guest may share a ticket with credits. */
const mayShare = (order: PassOrder) => ownGuest(order) && order.credits > 0;

/**
 * The tokens the order object carries for this view of the ticket (null where none applies):
 * both only for the ticket's own guest. A shared guest never binds a band to the ticket.
 */
export async function ticketTokens(keys: Keys, order: PassOrder): Promise<Pick<PassOrder, 'ticketShareToken' | 'wristbandActivateToken'>> {
  const sign = (kind: TicketTokenKind) => keys.signToken(TICKET_TOKENS[kind].purpose, order.barcode, TICKET_TOKENS[kind].ttlSeconds);
  return {
    ticketShareToken: mayShare(order) ? await sign('share') : null,
    wristbandActivateToken: order.isWristband && ownGuest(order) ? await sign('wristband') : null,
  };
}

/**
 * The barcode a ticket token names: 408 with the feature's text when it expired, 401 when it
 * is not a token of this kind (a tampered, foreign or missing one).
 */
export async function verifyTicketToken(keys: Keys, kind: TicketTokenKind, token: string | undefined): Promise<string> {
  const check = token ? await keys.verifyToken(TICKET_TOKENS[kind].purpose, token) : ({ ok: false, reason: 'invalid' } as const);
  if (check.ok) return check.subject;
  if (check.reason === 'expired') throw new AppError('TOKEN_EXPIRED', TICKET_TOKENS[kind].expired);
  throw notThisTicket();
}

/** 401: a token (or the ticket a call names) that is not this ticket's. */
export const notThisTicket = () => new AppError('UNAUTHORIZED', 'The token is not valid for this ticket. Please refresh and try again.');

/** The bearer token of an Authorization header, if it has one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
