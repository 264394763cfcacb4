// The guest ticket core: finding a ticket by order id + barcode, by a share link or as a
// test pass, always under the lookup throttle, and building the order object the guest page
// shows (customization, exclusions, wristband, balance and void state). Pass, wallet, voucher
// and photo use it; a feature never looks a ticket up another way.
import { z } from 'zod/mini';
import { guestMessages } from '@boardwalk/contract/errors';
import { passOrder, TEST_PASS_ORDER_ID, type PassOrder } from '@boardwalk/contract/pass';
import { isStoredValueCard } from '@boardwalk/contract/pass-display';
import { BARCODE_HASH_PATTERN } from '@boardwalk/contract/stored-value';
import type { TicketWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import { DEFAULT_LANGUAGE, type Language } from '@boardwalk/contract/i18n/languages';
import { textIn } from '@boardwalk/contract/i18n/staff-texts';
import type { Config } from '../../platform/config.ts';
import { knownLanguage } from '../../platform/translators.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { hashSecret } from '../../platform/secrets.ts';
import { answer, type LookupThrottles } from '../../platform/throttle.ts';
import { createPassRules, type TicketRules } from './pass-rules.service.ts';
import { passTexts } from './pass-texts.ts';
import { findShareByHashUrlHash, findTestPass, findTicketRow, findTicketRowOfBarcode, type TicketRow } from './ticket.repo.ts';
import { findTicketByBarcodeHash, insertStoredValueLink, type StoredValueTicket } from './stored-value-link.repo.ts';

/** What the ticket core is built with, once (ticket.plugin.ts). */
export interface TicketCoreDeps {
  db: Executor;
  config: Pick<Config, 'defaultPassColors'>;
  throttles: LookupThrottles;
  /** The server's keys: signed ticket tokens, keyed hashes. */
  keys: Keys;
}

/** Who looks a ticket up: the client's address (request.ip, which honours TRUST_PROXY only) counts for the throttle. */
export interface Caller {
  clientAddress: string;
}

export const notFound = () => new AppError('ORDER_NOT_FOUND', guestMessages.orderNotFound);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const color = (hex: string) => `#${hex.toLowerCase()}`;

/**
 * Runs a lookup under the anti-enumeration throttle: each answer takes a point from the
 * address and the order id (the look runs first, throttle.ts answer()); a miss keeps them, a
 * hit gives them back.
 */
async function throttled<T>(
  deps: TicketCoreDeps,
  { clientAddress }: Caller,
  orderId: string | null,
  find: () => Promise<T | null>,
): Promise<T> {
  const { perAddress, perOrder } = deps.throttles;
  const keys = orderId === null ? [perAddress.of(clientAddress)] : [perAddress.of(clientAddress), perOrder.of(orderId)];
  return answer(keys, async () => {
    const found = await find();
    if (found === null) throw notFound();
    return found;
  });
}

/** A ticket's row with the pass rules that apply to it. */
export type PassRow = Omit<TicketRow, 'rulesVersion'> & TicketRules;

/**
 * The order object of a ticket, seen by the guest who came through shareId ('' for its own
 * guest); the exclusion message in `language` (the call's: staff's own text in it, else their
 * English one, else the catalogue's).
 */
export function toPassOrder(
  row: PassRow,
  ctx: Pick<TicketCoreDeps, 'config'>,
  shareId = '',
  language: Language = DEFAULT_LANGUAGE,
): PassOrder {
  const { ticket, order, registration: reg } = row;
  const share = shareId ? row.shares.find((s) => s.id === shareId) : undefined;
  const excluded =
    row.exclusion && !row.exclusion.excludeNfc ? (textIn(row.exclusion, 'customError', language) ?? passTexts(language)('excluded')) : null;
  return {
    // A shared guest sees the pass, never the order id that would make them its owner.
    orderId: share ? '' : order.orderId,
    barcode: ticket.barcode,
    firstName: reg?.firstName ?? ticket.holderFirstName,
    lastName: reg?.lastName ?? ticket.holderLastName,
    email: reg?.email ?? ticket.holderEmail,
    phone: reg?.phone ?? ticket.holderPhone,
    optInEmailMarketing: reg?.optInEmailMarketing ?? false,
    optInSMSMarketing: reg?.optInSmsMarketing ?? false,
    isPassActivated: ticket.isPassActivated,
    isRedeemed: ticket.redeemed !== null,
    isWristband: row.isWristband,
    excluded,
    shareId: share ? share.id : '',
    sharedWith: share ?? null,
    iCloudBindingLink: ticket.iCloudBindingLink,
    iCloudBoundToWallet: row.iCloudBoundToWallet,
    photoUid: row.photoUid,
    skipRegistration: row.skipRegistration,
    skipImage: row.skipImage,
    passLocked: row.passLocked,
    isPassholder: ticket.isPassholder,
    credits: ticket.credits,
    cash: ticket.cash,
    category: ticket.category,
    purchaserFirstName: order.purchaserFirstName,
    purchaserLastName: order.purchaserLastName,
    orderDate: iso(order.orderDate),
    redeemed: iso(ticket.redeemed),
    expires: iso(ticket.expires),
    visitDate: ticket.visitDate,
    product: ticket.product,
    refunded: ticket.refunded,
    backgroundColor: color(row.customization?.backgroundColor ?? ctx.config.defaultPassColors.background),
    foregroundColor: color(row.customization?.color ?? ctx.config.defaultPassColors.foreground),
    ticketShares: share ? [] : row.shares,
    // Issued by the calls that answer the order object to a guest (ticket-tokens.service.ts, the stored-value link).
    ticketShareToken: null,
    wristbandActivateToken: null,
    barcodeHash: null,
  };
}

/**
 * The language of the guest a ticket's pass is for (docs/i18n.md): a shared guest's share's,
 * the own guest's registration's; English for a ticket nobody registered.
 */
export const holderLanguage = (row: Pick<PassRow, 'registration' | 'shares'>, shareId?: string | null): Language =>
  knownLanguage(shareId ? row.shares.find((s) => s.id === shareId)?.language : row.registration?.language);

/** A test pass (order id 0): its order data is the staff-entered JSON over neutral defaults. */
function toTestPassOrder(pass: NonNullable<Awaited<ReturnType<typeof findTestPass>>>, ctx: Pick<TicketCoreDeps, 'config'>): PassOrder {
  let data: Partial<PassOrder> = {};
  try {
    const parsed = z.partial(passOrder).safeParse(JSON.parse(pass.data || '{}'));
    if (parsed.success) data = parsed.data;
  } catch {
    // Unparseable test data: the pass still answers, with the defaults.
  }
  return {
    firstName: 'Test',
    lastName: 'Pass',
    email: null,
    phone: null,
    optInEmailMarketing: false,
    optInSMSMarketing: false,
    isPassActivated: false,
    isRedeemed: false,
    isWristband: false,
    excluded: null,
    sharedWith: null,
    iCloudBindingLink: null,
    iCloudBoundToWallet: false,
    photoUid: null,
    skipRegistration: true,
    skipImage: true,
    passLocked: false,
    isPassholder: false,
    credits: 0,
    cash: 0,
    category: null,
    purchaserFirstName: null,
    purchaserLastName: null,
    orderDate: null,
    redeemed: null,
    expires: null,
    visitDate: null,
    product: pass.description || 'Test Pass',
    refunded: false,
    backgroundColor: color(ctx.config.defaultPassColors.background),
    foregroundColor: color(ctx.config.defaultPassColors.foreground),
    ...data,
    orderId: TEST_PASS_ORDER_ID,
    barcode: pass.barcode,
    shareId: '',
    ticketShares: [],
    ticketShareToken: null,
    wristbandActivateToken: null,
    barcodeHash: null,
  };
}

/** A ticket reached by order id + barcode (+ share id) or by a share link (not a test pass). */
export type TicketRequest = { orderId: string; barcode: string; shareId?: string | undefined } | { hashUrl: string };

/**
 * The ticket core, built once with its dependencies; each use case takes the facts of one
 * request (the caller's address, what the guest sent).
 */
export function createTicketCore(deps: TicketCoreDeps) {
  const { db, keys } = deps;
  const rules = createPassRules(db);

  /** A found ticket's row with its pass rules, read on `on` (a transaction, or the database). */
  async function withRules(on: Executor, row: TicketRow | null): Promise<PassRow | null> {
    if (!row) return null;
    const { rulesVersion, ...rest } = row;
    const { barcode, packId, categoryId, merchItemId } = row.ticket;
    return { ...rest, ...(await rules.of(on, rulesVersion, { barcode, orderId: row.order.orderId, packId, categoryId, merchItemId })) };
  }

  /** The ticket with this barcode in this order, with its pass rules, or null. */
  const findPass = async (on: Executor, opts: { orderId: string; barcode: string }) => withRules(on, await findTicketRow(on, opts));

  /**
   * The ticket a login, wallet or voucher call names, under the lookup throttle, with the
   * share the guest came through ('' for the ticket's own guest).
   */
  async function find(request: Caller & TicketRequest): Promise<{ row: PassRow; shareId: string }> {
    if ('hashUrl' in request && request.hashUrl) {
      const hashUrlHash = hashSecret(request.hashUrl);
      const share = await throttled(deps, request, null, () => findShareByHashUrlHash(db, hashUrlHash));
      if (share.removedAt) throw new AppError('PASS_NO_LONGER_SHARED', guestMessages.passNoLongerShared);
      const row = await findPass(db, { orderId: share.orderId, barcode: share.barcode });
      if (!row) throw notFound();
      return { row, shareId: share.shareId };
    }
    const { orderId, barcode, shareId } = request as { orderId: string; barcode: string; shareId?: string };
    const row = await throttled(deps, request, orderId, () => findPass(db, { orderId, barcode }));
    return { row, shareId: shareId ?? '' };
  }

  /**
   * A ticket's barcodeHash (the keyed hash of its barcode that /stored-value/{barcodeHash}
   * names), kept with its barcode so the page can find the ticket again (unless `linked`: the
   * pair is kept already), and answered.
   */
  async function issueBarcodeHash(barcode: string, linked = false): Promise<string> {
    const barcodeHash = keys.keyedHash('stored-value', barcode);
    if (!linked) await insertStoredValueLink(db, { barcodeHash, barcode });
    return barcodeHash;
  }

  return {
    find,
    findPass,

    /**
     * The ticket with this barcode, whatever its order, with its pass rules, or null: for calls
     * that carry a signed ticket token (which names the barcode) instead of the order id.
     */
    findPassOfBarcode: async (on: Executor, barcode: string) => withRules(on, await findTicketRowOfBarcode(on, barcode)),

    /**
     * The ticket of a wallet call (Apple, Google): by order id + barcode (+ share id) or by a
     * share link, with the share the guest came through ('' for the ticket's own guest). A
     * share id that names no active share is the page's "Pass No Longer Shared".
     */
    async findForWallet(request: Caller & TicketWalletRequest): Promise<{ row: PassRow; shareId: string }> {
      const { row, shareId } = await find({
        clientAddress: request.clientAddress,
        ...(request.hashUrl
          ? { hashUrl: request.hashUrl }
          : { orderId: request.orderId ?? '', barcode: request.barcode ?? '', shareId: request.shareId || undefined }),
      });
      if (shareId && !row.shares.some((s) => s.id === shareId))
        throw new AppError('PASS_NO_LONGER_SHARED', guestMessages.passNoLongerShared);
      return { row, shareId };
    },

    /** A test pass (order id 0) by its barcode, under the lookup throttle, as its order object. */
    async findTestPassOrder(request: Caller & { barcode: string }): Promise<PassOrder> {
      return toTestPassOrder(await throttled(deps, request, TEST_PASS_ORDER_ID, () => findTestPass(db, request.barcode)), deps);
    },

    /**
     * The ticket a barcodeHash names, under the lookup throttle: a hash that names no ticket,
     * malformed (never looked up) or unknown, counts against the client address like an
     * unknown order and answers "Unable to locate order".
     */
    async findByHash(request: Caller & { barcodeHash: string }): Promise<StoredValueTicket> {
      const { barcodeHash } = request;
      return throttled(deps, request, null, async () =>
        BARCODE_HASH_PATTERN.test(barcodeHash) ? findTicketByBarcodeHash(db, barcodeHash) : null,
      );
    },

    /** The order object of a found ticket, as the guest who came through shareId ('' for its own guest) sees it. */
    toPassOrder: (row: PassRow, shareId = '', language?: Language) => toPassOrder(row, deps, shareId, language),

    issueBarcodeHash,

    /**
     * The order object's barcodeHash: only a Stored Value Card's, and only for the ticket's own
     * guest (not a shared view, whose share can be stopped while a page link cannot; not a test
     * pass). Other tickets, and a card whose link is kept already (`linked`: the lookup's row
     * says so), cost no query.
     */
    async orderBarcodeHash(order: PassOrder, linked: boolean): Promise<string | null> {
      const ownGuest = !order.sharedWith && order.orderId !== '' && order.orderId !== TEST_PASS_ORDER_ID;
      return ownGuest && isStoredValueCard(order) ? issueBarcodeHash(order.barcode, linked) : null;
    },
  };
}

export type TicketCore = ReturnType<typeof createTicketCore>;
