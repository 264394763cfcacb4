// Google Wallet passes: the "Save to Google Wallet" link for a ticket, and updates of the saved
// object when the ticket changes. A park ticket, season pass or stored-value card is not tied
// to one event with a date and venue, so it is a Generic pass (Google's type for passes that
// fit no predefined vertical) rather than an Event ticket. A loyalty member's card is Google's
// Loyalty pass: the program, the member and the points balance.
import { createHash } from 'node:crypto';
import type { PassOrder } from '@boardwalk/contract/pass';
import { balanceText, dateFormats, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type { GoogleTicketWalletRequest, LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import { maskBarcode } from '../../platform/logging.ts';
import {
  GoogleWalletApiError,
  type GenericClass,
  type GenericObject,
  type GoogleWallet,
  type LocalizedString,
  type LoyaltyClass,
  type LoyaltyObject,
  type WalletObject,
} from '../../integrations/google-wallet/google-wallet.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { PermanentDeliveryError, queueDelivery, tryDelivery, type DeliveryJobData } from '../../platform/jobs/delivery.ts';
import { QUEUES, type JobQueue, type RunningJob } from '../../platform/jobs/job-queue.ts';
import { findPassByBarcode, type PassRow } from '../ticket/ticket.repo.ts';
import { findWalletTicket, toPassOrder, type TicketContext } from '../ticket/ticket.service.ts';
import { findLoyaltyPass, findVoidedPass } from './apple-wallet.repo.ts';
import { findGoogleIssuedPasses, markGoogleIssued, setGoogleContentHash } from './google-wallet.repo.ts';
import { findLoyaltyMember, type LoyaltyMember } from './loyalty-member.repo.ts';
import { authorizedMember, loyaltyPassTexts, memberName } from './loyalty-member.service.ts';

type WalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone'>;

export interface GoogleWalletContext extends TicketContext {
  config: WalletConfig;
  wallet: GoogleWallet;
}

export interface GoogleWalletUpdateContext {
  db: Executor;
  jobs: JobQueue;
  config: WalletConfig;
  wallet: GoogleWallet;
  log: FastifyBaseLogger;
}

/** One class for every ticket: the card layout and who may save its objects. */
export const TICKET_CLASS_SUFFIX = 'park-ticket';

const text = (value: string): LocalizedString => ({ defaultValue: { language: 'en-US', value } });
const row = (start: string, end: string) => ({
  twoItems: {
    startItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${start}']` }] } },
    endItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${end}']` }] } },
  },
});

export function ticketClass(issuerId: string): GenericClass {
  return {
    id: `${issuerId}.${TICKET_CLASS_SUFFIX}`,
    // A shared ticket (ticket shares) is saved by its guest and by the guests it is shared with.
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    classTemplateInfo: { cardTemplateOverride: { cardRowTemplateInfos: [row('product', 'balance'), row('order_date', 'expires')] } },
  };
}

function httpUrl(value: string | null | undefined): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function walletState(order: PassOrder, now: Date): GenericObject['state'] {
  if (order.refunded) return 'INACTIVE';
  if (order.expires && new Date(order.expires).getTime() < now.getTime()) return 'EXPIRED';
  // The pass card voids a redeemed ticket; Google's word for a used-up pass is COMPLETED.
  if (order.isRedeemed || order.redeemed) return 'COMPLETED';
  return 'ACTIVE';
}

export interface ObjectInput {
  order: PassOrder;
  customization: NonNullable<PassRow>['customization'];
  serialNumber: string;
  issuerId: string;
  config: WalletConfig;
  /** Put the holder photo on the pass (when the ticket has one). */
  withPhoto: boolean;
  now?: Date;
}

/** The Google Wallet object for a ticket: what the pass card shows, in Google's fields. */
export function toGenericObject({
  order,
  customization,
  serialNumber,
  issuerId,
  config,
  withPhoto,
  now = new Date(),
}: ObjectInput): GenericObject {
  const { date, dateTime } = dateFormats(config.parkTimezone);
  const holder = ticketholderName(order);
  const balance = balanceText(order);

  const modules: { id: string; header: string; body: string }[] = [
    { id: 'product', header: 'Product', body: order.refunded ? `${order.product} (Refunded)` : order.product },
    { id: 'balance', header: balance.label, body: balance.value },
  ];
  if (order.orderDate) modules.push({ id: 'order_date', header: 'Order Date', body: date(order.orderDate) });
  if (order.expires) modules.push({ id: 'expires', header: 'Expires', body: date(order.expires) });
  if (order.redeemed) modules.push({ id: 'redeemed', header: 'Redeemed', body: dateTime(order.redeemed) });
  const purchaser = purchaserName(order);
  if (purchaser) modules.push({ id: 'purchaser', header: 'Purchaser', body: purchaser });
  // Staff write Google's own instructions; without them, the pass's general instructions.
  const instructions = customization?.googleInstructions?.trim() || customization?.instructions?.trim();
  if (instructions) modules.push({ id: 'instructions', header: 'Instructions', body: instructions });

  const object: GenericObject = {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${TICKET_CLASS_SUFFIX}`,
    genericType: 'GENERIC_TYPE_UNSPECIFIED',
    state: walletState(order, now),
    cardTitle: text(config.brandName),
    ...(holder ? { subheader: text('Ticketholder'), header: text(holder) } : { header: text(order.product) }),
    hexBackgroundColor: order.backgroundColor,
    textModulesData: modules,
  };
  if (!customization?.hideBarcode) object.barcode = { type: 'CODE_128', value: order.barcode, alternateText: order.barcode };
  if (order.expires) object.validTimeInterval = { end: { date: new Date(order.expires).toISOString() } };
  const link = httpUrl(customization?.googleUri);
  if (link) object.linksModuleData = { uris: [{ id: 'more', uri: link, description: config.brandName }] };
  if (withPhoto && order.photoUid) {
    const uri = `${config.publicUrl}/api/download/${encodeURIComponent(order.photoUid)}/photo.png`;
    object.imageModulesData = [{ id: 'photo', mainImage: { sourceUri: { uri }, contentDescription: text('Ticketholder photo') } }];
  }
  return object;
}

/** One class for every member card: the program. */
export const LOYALTY_CLASS_SUFFIX = 'brownie-points';
/** The program logo Google shows on the card (a PNG it fetches; Google takes no SVG). */
export const PROGRAM_LOGO_PATH = '/api/google-wallet/program-logo.png';

export function loyaltyClass(issuerId: string, config: WalletConfig): LoyaltyClass {
  return {
    id: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    programName: loyaltyPassTexts.programName,
    programLogo: { sourceUri: { uri: `${config.publicUrl}${PROGRAM_LOGO_PATH}` }, contentDescription: text(config.brandName) },
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'ONE_USER_ALL_DEVICES',
  };
}

/** Google's `int` balance is 32 bits: a balance outside it goes as the same digits in `string`. */
const INT32_MAX = 2 ** 31 - 1;
const googleBalance = (points: number) => (Math.abs(points) <= INT32_MAX ? { int: points } : { string: String(points) });

/** The Google Wallet object of a member's card. */
export function toLoyaltyObject(member: LoyaltyMember, serialNumber: string, issuerId: string): LoyaltyObject {
  return {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    state: 'ACTIVE',
    accountId: member.memberNumber,
    accountName: memberName(member),
    loyaltyPoints: { label: loyaltyPassTexts.pointsLabel, balance: googleBalance(member.balance) },
    barcode: { type: 'CODE_128', value: member.memberNumber, alternateText: member.memberNumber },
  };
}

export interface LoyaltyGoogleWalletContext {
  db: Executor;
  keys: Keys;
  config: WalletConfig;
  wallet: GoogleWallet;
}

/** POST /api/google-wallet/ (loyalty variant): the "Save to Google Wallet" link of the member's card. */
export async function createLoyaltyGoogleLink(ctx: LoyaltyGoogleWalletContext, request: LoyaltyWalletRequest): Promise<string> {
  const member = await authorizedMember(ctx, request);
  const serialNumber = await markGoogleIssued(ctx.db, { loyaltyAccountId: member.id });
  const { issuerId } = ctx.wallet;
  return ctx.wallet.saveUrl({
    loyaltyClasses: [loyaltyClass(issuerId, ctx.config)],
    loyaltyObjects: [toLoyaltyObject(member, serialNumber, issuerId)],
  });
}

/** POST /api/google-wallet/: the "Save to Google Wallet" link for the ticket. */
export async function createGoogleWalletLink(ctx: GoogleWalletContext, request: GoogleTicketWalletRequest): Promise<string> {
  const row = await findWalletTicket(ctx, request);
  const order = toPassOrder(row, ctx);
  if (order.excluded) throw new AppError('FORBIDDEN', order.excluded);

  const serialNumber = await markGoogleIssued(ctx.db, { barcode: row.ticket.barcode });
  const { issuerId } = ctx.wallet;
  // One object per ticket, showing the ticket's own holder whoever saves it.
  const object = toGenericObject({
    order: toPassOrder(row, ctx),
    customization: row.customization,
    serialNumber,
    issuerId,
    config: ctx.config,
    withPhoto: request.hasPhoto === true,
  });
  return ctx.wallet.saveUrl({ genericClasses: [ticketClass(issuerId)], genericObjects: [object] });
}

/**
 * The object of a removed member's card: inactive, and nothing personal left on it (no name,
 * number, balance or barcode), only that the membership ended.
 */
export function voidedLoyaltyObject(serialNumber: string, issuerId: string): LoyaltyObject {
  return {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    state: 'INACTIVE',
    textModulesData: [{ id: 'status', header: loyaltyPassTexts.programName, body: loyaltyPassTexts.membershipEnded }],
  };
}

/** Whose saved object an update is for: a ticket's, a loyalty member's, or a removed member's voided card. */
export type GoogleUpdatePayload = { barcode: string } | { loyaltyAccountId: string } | { voidedSerialNumber: string };

interface CurrentObject {
  target: WalletObject;
  serialNumber: string;
  contentHash: string;
  storedHash: string | null;
  /** For the log and the Deliveries tab (the barcode masked). */
  details: Record<string, string>;
}

const hashOf = (object: object) => createHash('sha256').update(JSON.stringify(object)).digest('hex');

/** The object a saved Google pass should show now, and the hash that tells whether it changed. */
async function currentObject(ctx: GoogleWalletUpdateContext, db: Executor, of: GoogleUpdatePayload): Promise<CurrentObject | null> {
  if ('voidedSerialNumber' in of) {
    const pass = await findVoidedPass(db, of.voidedSerialNumber);
    if (!pass?.googleIssued) return null;
    const object = voidedLoyaltyObject(pass.serialNumber, ctx.wallet.issuerId);
    return {
      target: { kind: 'loyaltyObject', object },
      serialNumber: pass.serialNumber,
      contentHash: hashOf(object),
      storedHash: pass.googleContentHash,
      details: { objectId: object.id, state: object.state },
    };
  }
  if ('loyaltyAccountId' in of) {
    const pass = await findLoyaltyPass(db, of.loyaltyAccountId);
    const member = pass?.googleIssued ? await findLoyaltyMember(db, of.loyaltyAccountId) : null;
    if (!pass || !member) return null;
    const object = toLoyaltyObject(member, pass.serialNumber, ctx.wallet.issuerId);
    return {
      target: { kind: 'loyaltyObject', object },
      serialNumber: pass.serialNumber,
      contentHash: hashOf(object),
      storedHash: pass.googleContentHash,
      details: { objectId: object.id },
    };
  }
  const [pass] = await findGoogleIssuedPasses(db, [of.barcode]);
  if (!pass) return null;
  const found = await findPassByBarcode(db, { orderId: pass.orderId, barcode: of.barcode });
  if (!found) return null;
  // The photo goes on the update whenever the ticket has one: a new photo is a change to show.
  const object = toGenericObject({
    order: toPassOrder(found, ctx),
    customization: found.customization,
    serialNumber: pass.serialNumber,
    issuerId: ctx.wallet.issuerId,
    config: ctx.config,
    withPhoto: true,
  });
  return {
    target: { kind: 'genericObject', object },
    serialNumber: pass.serialNumber,
    contentHash: hashOf(object),
    storedHash: pass.googleContentHash,
    details: { objectId: object.id, barcode: maskBarcode(of.barcode), state: object.state },
  };
}

/**
 * A ticket or a member changed (in the change job's transaction): when the saved Google
 * object would show something else, an update job is queued (with Google credentials;
 * without, the update is logged). One update waiting per pass: it sends the latest state.
 */
export async function compareGoogleObject(ctx: GoogleWalletUpdateContext, tx: Executor, of: GoogleUpdatePayload): Promise<void> {
  const current = await currentObject(ctx, tx, of);
  if (!current || current.contentHash === current.storedHash) return;
  if (!ctx.wallet.updatesObjects) {
    ctx.log.info(current.details, 'Google Wallet object update recorded; not sent because no Google credentials are configured');
    return;
  }
  await queueDelivery(ctx.jobs, tx, {
    queue: QUEUES.googleUpdate,
    target: 'google',
    barcode: 'barcode' in of ? of.barcode : null,
    recipient: `object …${current.target.object.id.slice(-12)}`,
    payload: of,
    singletonKey:
      'barcode' in of ? of.barcode : 'loyaltyAccountId' in of ? `loyalty:${of.loyaltyAccountId}` : `voided:${of.voidedSerialNumber}`,
  });
}

/**
 * Replaces the saved object through the REST API with what the ticket shows now. An object
 * no guest saved (404) is skipped, as is one Google already shows; Google refusing the
 * request (400, 403) is not tried again.
 */
export async function updateGoogleObject(
  ctx: GoogleWalletUpdateContext,
  job: RunningJob<GoogleUpdatePayload & DeliveryJobData>,
): Promise<void> {
  await tryDelivery(ctx.db, job, async () => {
    const current = await currentObject(ctx, ctx.db, job.data);
    if (!current) return { state: 'skipped', note: 'The ticket or member no longer exists' };
    if (current.contentHash === current.storedHash) return { state: 'skipped', note: 'Google already shows this' };
    const { details } = current;
    let outcome: 'updated' | 'not-saved';
    try {
      outcome = await ctx.wallet.updateObject(current.target);
    } catch (err) {
      ctx.log.error({ ...details, err: (err as Error).message }, 'Google Wallet object update failed');
      throw err instanceof GoogleWalletApiError && err.permanent ? new PermanentDeliveryError(err.message) : err;
    }
    if (outcome === 'not-saved') {
      ctx.log.debug(details, 'Google Wallet object not saved by any guest yet; nothing to update');
      return { state: 'skipped', note: 'Not saved by any guest yet (404)' };
    }
    await setGoogleContentHash(ctx.db, current.serialNumber, current.contentHash);
    ctx.log.info(details, 'Google Wallet object updated');
    return { state: 'sent' };
  });
}
