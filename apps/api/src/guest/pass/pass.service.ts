// The guest pass (POST /api/login/, POST /api/register/): the ticket core's lookup, and
// saving a guest's registration, with a record of each consent it gives or withdraws.
import { TEST_PASS_ORDER_ID, type LoginRequest, type PassOrder, type RegisterRequest } from '@boardwalk/contract/pass';
import type { Executor } from '@boardwalk/db/client';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { ActivityCounts } from '../../platform/activity-counts.ts';
import { photoMessages } from '@boardwalk/contract/photo';
import { AppError } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { notFound, type Caller, type PassRow, type TicketCore, type TicketRequest } from '../ticket/ticket.service.ts';
import { ticketTokens } from '../ticket/ticket-tokens.service.ts';
import { currentConsentTexts, recordConsentChanges, REGISTRATION_FORM, type ConsentTextIds } from './consent.repo.ts';
import { isPassLockedForWrite } from '../ticket/pass-lock.repo.ts';
import { lockRegistration, upsertRegistration } from './pass.repo.ts';
import type { Language } from '@boardwalk/contract/i18n/languages';

/** What the pass feature is built with, once (pass.routes.ts). */
export interface PassDeps {
  db: Executor;
  tickets: TicketCore;
  keys: Keys;
  changes: ChangeBus;
  activity: ActivityCounts;
  /** The current consent wording's versions in a language (consentTextsOnce). */
  consentTexts: (language: Language) => Promise<ConsentTextIds>;
}

/**
 * The current consent wording's versions in each language, stored by the first registration in
 * it that needs them and then remembered: the wording changes only with the configuration (a
 * restart). A failed store is tried again by the next registration.
 */
export function consentTextsOnce(db: Executor, brand: string): (language: Language) => Promise<ConsentTextIds> {
  const ids = new Map<Language, Promise<ConsentTextIds>>();
  return (language) => {
    let stored = ids.get(language);
    if (!stored) {
      stored = currentConsentTexts(db, brand, language).catch((error: unknown) => {
        ids.delete(language);
        throw error;
      });
      ids.set(language, stored);
    }
    return stored;
  };
}

/**
 * The order object of a found ticket as login and register answer it, seen by the guest who
 * came through shareId ('' for its own guest): with the tokens this view of the ticket may use
 * and, for a Stored Value Card's own guest, its balance page (its link kept by the first such
 * answer: one more query, only then).
 */
async function answer(deps: PassDeps, row: PassRow, language: Language, shareId = ''): Promise<PassOrder> {
  const order = deps.tickets.toPassOrder(row, shareId, language);
  const [tokens, barcodeHash] = await Promise.all([
    ticketTokens(deps.keys, order),
    deps.tickets.orderBarcodeHash(order, row.storedValueLinked),
  ]);
  return { ...order, ...tokens, barcodeHash };
}

/** POST /api/login/, counted for the Dashboard: found, failed (no such pass, or a share stopped) or refused by the throttle. */
export async function lookupPass(deps: PassDeps, request: Caller & LoginRequest & { language: Language }): Promise<PassOrder> {
  let order: PassOrder;
  try {
    order = await findPassOrder(deps, request);
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      deps.activity.count(error.code === 'TOO_MANY_ATTEMPTS' ? 'lookup-throttled' : 'lookup-failed');
    }
    throw error;
  }
  deps.activity.count('lookup-found');
  if (request.hashUrl) deps.activity.count('share-link-opened');
  return order;
}

async function findPassOrder(deps: PassDeps, request: Caller & LoginRequest & { language: Language }): Promise<PassOrder> {
  if (!request.hashUrl && request.orderId === TEST_PASS_ORDER_ID) {
    return deps.tickets.findTestPassOrder({ clientAddress: request.clientAddress, barcode: request.barcode as string });
  }
  const { row, shareId } = await deps.tickets.find(request as Caller & TicketRequest);
  return answer(deps, row, request.language, shareId);
}

/** POST /api/register/: saves what the guest entered; the ticketing feed never overwrites it. */
export async function registerPass(
  deps: PassDeps,
  request: Caller & RegisterRequest & { phone: string; language: Language },
): Promise<PassOrder> {
  const { orderId, barcode } = request;
  const { row: found } = await deps.tickets.find({ clientAddress: request.clientAddress, orderId, barcode });
  // A season pass locked by its holder's erasure takes no new name until staff lift the lock.
  if (found.passLocked) throw new AppError('FORBIDDEN', photoMessages.passLocked);
  // The wording the guest saw: the registration form's in the call's language.
  const texts = await deps.consentTexts(request.language);
  await deps.db.transaction(async (tx) => {
    // The ticket's row is locked first: two registrations of one ticket record their changes in turn.
    const before = await lockRegistration(tx, barcode);
    if (await isPassLockedForWrite(tx, barcode)) throw new AppError('FORBIDDEN', photoMessages.passLocked);
    const after = { email: request.optInEmailMarketing ?? false, sms: request.optInSMSMarketing ?? false };
    const changed = await recordConsentChanges(tx, barcode, { before, after, texts, source: REGISTRATION_FORM });
    const { firstName, lastName, email, phone, language } = request;
    await upsertRegistration(tx, {
      barcode,
      firstName,
      lastName,
      email,
      phone,
      optInEmailMarketing: after.email,
      optInSmsMarketing: after.sms,
      language,
    });
    const subject = `ticket:${barcode}` as const;
    await recordEvent(tx, 'guest.registered', subject, {
      orderId,
      barcode,
      firstName,
      lastName,
      email,
      phone,
      consents: after,
      language,
    });
    for (const channel of changed) {
      await recordEvent(tx, 'guest.consent_changed', subject, {
        orderId,
        barcode,
        channel,
        given: after[channel],
        source: REGISTRATION_FORM,
      });
    }
    // The holder's name on passes already in wallets.
    await deps.changes.publish(tx, TICKET_CHANGED, [barcode]);
  });
  const row = await deps.tickets.findPass(deps.db, { orderId, barcode });
  if (!row) throw notFound();
  return answer(deps, row, request.language);
}
