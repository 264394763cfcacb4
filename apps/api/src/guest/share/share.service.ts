// Ticket shares: the ticket's own guest, holding the ticketShareToken of the order object, lists,
// starts, changes and stops the shares of a ticket with credits.
//
// - Every call names the ticket by barcode (or a share link of it); the token must name
//   that same ticket, else 401; an expired token is 408 (ticket-tokens.service.ts).
// - At most TICKET_SHARE_LIMIT active shares per ticket: counted and written under a lock
//   on the ticket's row, so concurrent starts take turns and never pass the limit.
// - Starting a share issues a new link (only its hash is stored) and mails it to the guest
//   in the same transaction (outbox + mail job): a share that is not committed sends nothing.
// - At most TICKET_SHARE_MAILS_PER_DAY share mails per ticket per park day (from 2 AM): every
//   share started (a new one, or a new address) sends one, stopped ones included, so starting
//   and stopping shares is no way round it. Counted under the same ticket lock; beyond it
//   429 and nothing changes. Stopping a share sends no mail.
// - The mail carries names only when they are names (letters, spaces, hyphens, apostrophes,
//   periods: the contract's rule) and a link only the server made.
// - Changing a share's email stops the old share (its link answers 410) and starts a new one
//   mailed to the new address; other changes are made in place. Stopping a share sets its
//   removedAt: its link and share id stop at once.
import { recordEvent } from '../../platform/events.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { isPersonName, SHARE_REFUSALS, shareTexts, type CreateShareRequest, type UpdateShareRequest } from '@boardwalk/contract/share';
import { BARCODE_PATTERN, TEST_PASS_ORDER_ID, type TicketShare } from '@boardwalk/contract/pass';
import type { Executor } from '@boardwalk/db/client';
import type { Mailer, OutgoingMail } from '../../integrations/email/mailer.ts';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import { operatingDayStart } from '../../platform/park-time.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { lockTicket } from '../../integrations/ticketing/ticket-lock.repo.ts';
import { findShareByHashUrlHash } from '../ticket/ticket.repo.ts';
import { bearerToken, notThisTicket, verifyTicketToken } from '../ticket/ticket-tokens.service.ts';
import {
  countActiveShares,
  countSharesStartedSince,
  findActiveShare,
  findActiveShares,
  insertShare,
  removeShare,
  updateShare,
  type StoredShare,
} from './share.repo.ts';
import { linkIn, mailTexts } from '../../integrations/email/mail-texts.ts';
import type { Language } from '@boardwalk/contract/i18n/languages';

/** What sharing is built with, once (share.routes.ts). */
export interface ShareDeps {
  db: Executor;
  keys: Keys;
  config: Pick<Config, 'ticketShareLimit' | 'ticketShareMailsPerDay' | 'parkTimezone' | 'publicUrl' | 'brandName'>;
  mailer: Pick<Mailer, 'send'>;
  /** A stopped share voids the shared guest's own wallet pass: the ticket is published as changed. */
  changes: ChangeBus;
}

/** The caller of a share call: the request's Authorization header (the ticket's share token). */
export interface Bearer {
  authorization: string | undefined;
}

const shareGone = () => new AppError('NOT_FOUND', shareTexts.shareGone);

/**
 * The barcode of the ticket a call names (by barcode or by a share link), once the bearer
 * token is known to name that same ticket. The token is checked first: without a valid one
 * nothing is looked up.
 */
async function authorizedBarcode(deps: ShareDeps, { authorization }: Bearer, ticket: string): Promise<string> {
  const barcode = await verifyTicketToken(deps.keys, 'share', bearerToken(authorization));
  if (BARCODE_PATTERN.test(ticket)) {
    if (ticket !== barcode) throw notThisTicket();
    return barcode;
  }
  const link = await findShareByHashUrlHash(deps.db, hashSecret(ticket));
  if (link?.barcode !== barcode) throw notThisTicket();
  return barcode;
}

/** An order id a call gives ('' or 0 for none) must be the ticket's own. */
function checkOrderId(given: string | undefined, ticket: { orderId: string }) {
  if (given && given !== TEST_PASS_ORDER_ID && given !== ticket.orderId) throw notThisTicket();
}

const toShare = (share: StoredShare, directLink: string | null = null): TicketShare => ({ ...share, directLink });

/** GET /api/share/{barcode or hashUrl}: the active shares; an empty list is the route's 204. */
export async function listShares(deps: ShareDeps, request: Bearer & { ticket: string }): Promise<TicketShare[]> {
  const barcode = await authorizedBarcode(deps, request, request.ticket);
  return (await findActiveShares(deps.db, barcode)).map((share) => toShare(share));
}

/** The locked ticket a write names, if it may still be shared. */
async function lockSharedTicket(tx: Executor, barcode: string, orderId?: string) {
  const ticket = await lockTicket(tx, barcode);
  // The ticket was dropped by the ticketing feed since the token was issued.
  if (!ticket) throw notThisTicket();
  checkOrderId(orderId, ticket);
  return ticket;
}

type LockedTicket = NonNullable<Awaited<ReturnType<typeof lockTicket>>>;
type NewShare = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  salesforceId?: string | null;
  language: Language;
};

/** The next park day's start (2 AM), when a ticket's share mails count from zero again. */
const NEXT_DAY_MS = 26 * 3600_000;

/**
 * Writes a new share with a new link and queues its mail, in the caller's transaction, which
 * holds the ticket's lock: the day's share mails are counted under it.
 */
async function startShare(deps: ShareDeps, tx: Executor, ticket: LockedTicket, values: NewShare): Promise<TicketShare> {
  const now = new Date();
  const dayStart = operatingDayStart(now, deps.config.parkTimezone);
  const limit = deps.config.ticketShareMailsPerDay;
  if ((await countSharesStartedSince(tx, ticket.barcode, dayStart)) >= limit) {
    // 25 or 23 hours on the days clocks change: the next start is found, not added.
    const nextDay = operatingDayStart(new Date(dayStart.getTime() + NEXT_DAY_MS), deps.config.parkTimezone);
    throw new AppError('TOO_MANY_ATTEMPTS', shareTexts.mailLimitReached(limit), {
      reason: SHARE_REFUSALS.mailLimitReached,
      params: { limit },
      retryAfterSeconds: Math.max(1, Math.ceil((nextDay.getTime() - now.getTime()) / 1000)),
    });
  }
  const hashUrl = newSecret();
  const share = await insertShare(tx, { barcode: ticket.barcode, hashUrlHash: hashSecret(hashUrl), ...values });
  const { firstName, lastName, email, phone } = share;
  const { language } = values;
  await recordEvent(tx, 'share.created', `ticket:${ticket.barcode}`, {
    orderId: ticket.orderId,
    barcode: ticket.barcode,
    shareId: share.id,
    firstName,
    lastName,
    email,
    phone,
    language,
  });
  const directLink = `${deps.config.publicUrl}/${hashUrl}`;
  await deps.mailer.send(tx, shareMail(deps, ticket, share, directLink, language));
  return toShare(share, directLink);
}

/** POST /api/share/ */
export async function createShare(
  deps: ShareDeps,
  request: Bearer & CreateShareRequest & { phone: string | null; language: Language },
): Promise<TicketShare> {
  const barcode = await authorizedBarcode(deps, request, request.barcode);
  if (request.hashUrl) await authorizedBarcode(deps, request, request.hashUrl);
  const { firstName, lastName, email, phone, language } = request;
  return deps.db.transaction(async (tx) => {
    const ticket = await lockSharedTicket(tx, barcode, request.orderId);
    if (!(ticket.credits > 0)) throw new AppError('FORBIDDEN', shareTexts.noCredits);
    const limit = deps.config.ticketShareLimit;
    if ((await countActiveShares(tx, barcode)) >= limit) {
      throw new AppError('VALIDATION_FAILED', shareTexts.limitReached(limit), { reason: SHARE_REFUSALS.limitReached, params: { limit } });
    }
    return startShare(deps, tx, ticket, { firstName, lastName, email, phone, language });
  });
}

/** PUT /api/share/{barcode or hashUrl}/{shareId} */
export async function changeShare(
  deps: ShareDeps,
  params: Bearer & { ticket: string; shareId: string },
  request: UpdateShareRequest & { phone: string | null; language: Language },
): Promise<TicketShare> {
  const barcode = await authorizedBarcode(deps, params, params.ticket);
  const { firstName, lastName, email, phone, language } = request;
  return deps.db.transaction(async (tx) => {
    const ticket = await lockSharedTicket(tx, barcode);
    const current = await findActiveShare(tx, { barcode, shareId: params.shareId });
    if (!current) throw shareGone();
    const salesforceId = request.salesforceId === undefined ? current.salesforceId : request.salesforceId || null;
    if (current.email.toLowerCase() !== email.toLowerCase()) {
      // A new address gets a new link: the old one, which went to the old address, stops.
      await endShare(deps, tx, ticket, current.id);
      return startShare(deps, tx, ticket, { firstName, lastName, email, phone, salesforceId, language });
    }
    const updated = await updateShare(tx, { barcode, shareId: current.id }, { firstName, lastName, email, phone, salesforceId, language });
    if (!updated) throw shareGone();
    await recordEvent(tx, 'share.updated', `ticket:${barcode}`, {
      orderId: ticket.orderId,
      barcode,
      shareId: updated.id,
      firstName: updated.firstName,
      lastName: updated.lastName,
      email: updated.email,
      phone: updated.phone,
      language,
    });
    return toShare(updated);
  });
}

/** DELETE /api/share/{orderId or 0}/{barcode or hashUrl}/{shareId}/{salesforceId or empty} */
export async function stopShare(deps: ShareDeps, params: Bearer & { orderId: string; ticket: string; shareId: string }): Promise<void> {
  const barcode = await authorizedBarcode(deps, params, params.ticket);
  await deps.db.transaction(async (tx) => {
    const ticket = await lockSharedTicket(tx, barcode, params.orderId);
    if (!(await endShare(deps, tx, ticket, params.shareId))) throw shareGone();
  });
}

/** Stops a share in tx (its link opens nothing more), publishes the ticket and records the event; false when it was not active. */
async function endShare(deps: ShareDeps, tx: Executor, ticket: LockedTicket, shareId: string): Promise<boolean> {
  if (!(await removeShare(tx, { barcode: ticket.barcode, shareId }))) return false;
  await deps.changes.publish(tx, TICKET_CHANGED, [ticket.barcode]);
  await recordEvent(tx, 'share.stopped', `ticket:${ticket.barcode}`, { orderId: ticket.orderId, barcode: ticket.barcode, shareId });
  return true;
}

/** The guest's email: who shared what, and their direct link. */
export function shareMail(
  deps: Pick<ShareDeps, 'config'>,
  ticket: Pick<LockedTicket, 'firstName' | 'lastName' | 'holderFirstName' | 'holderLastName' | 'product'>,
  share: Pick<StoredShare, 'firstName' | 'email'>,
  directLink: string,
  language: Language,
): OutgoingMail {
  const brand = deps.config.brandName;
  const owner = [ticket.firstName ?? ticket.holderFirstName, ticket.lastName ?? ticket.holderLastName]
    .map((n) => n?.trim())
    .filter(Boolean) as string[];
  // Names come from guests (a registration, the share form, a share from before the rule):
  // one that is not a name never reaches the mail.
  const t = mailTexts(language);
  const who = owner.length > 0 && owner.every(isPersonName) ? owner.join(' ') : t('share.someone');
  const greeting = isPersonName(share.firstName) ? t('share.greetingNamed', { firstName: share.firstName }) : t('share.greeting');
  return {
    to: share.email,
    subject: t('share.subject', { who, brand }),
    text: t('share.text', { greeting, who, brand, product: ticket.product, link: linkIn(directLink, language) }),
  };
}
