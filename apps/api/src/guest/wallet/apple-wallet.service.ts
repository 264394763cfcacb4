// Apple Wallet passes: the signed .pkpass of a ticket, Apple's PassKit web service that keeps
// passes in wallets up to date, and the updates pushed when a ticket changes. A park ticket,
// season pass or stored-value card is not one event at one venue, so the pass is of the generic
// style, which also shows the holder photo as its thumbnail. A loyalty member's card is a store
// card: the points balance, the member's name and number (the barcode).
import { createHash, timingSafeEqual } from 'node:crypto';
import { guestMessages } from '@boardwalk/contract/errors';
import type { PassOrder } from '@boardwalk/contract/pass';
import { balanceText, dateFormats, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type { LoyaltyWalletRequest, TicketWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppleWallet } from '../../integrations/apple-wallet/apple-wallet.plugin.ts';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import { maskBarcode, maskUrl } from '../../platform/logging.ts';
import { tryDelivery, queueDelivery, type DeliveryJobData } from '../../platform/jobs/delivery.ts';
import { QUEUES, type JobQueue, type RunningJob } from '../../platform/jobs/job-queue.ts';
import { hashSecret } from '../../platform/secrets.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { TicketChanges } from '../../platform/ticket-changes.plugin.ts';
import { findPhotoPng } from '../ticket/holder-photo.repo.ts';
import { findPassByBarcode, type PassRow } from '../ticket/ticket.repo.ts';
import { findWalletTicket, toPassOrder, type TicketContext } from '../ticket/ticket.service.ts';
import {
  deleteDeviceRegistration,
  deleteDeviceRegistrations,
  findApplePasses,
  findDeviceRegistration,
  findDeviceRegistrations,
  findLoyaltyPass,
  findPassBySerialNumber,
  findUpdatedSerialNumbers,
  findVoidedPass,
  isLegacyPassToken,
  lockPass,
  saveApplePass,
  trimDeviceRegistrations,
  updateContentHash,
  upsertDeviceRegistration,
  type PassHolder,
} from './apple-wallet.repo.ts';
import { findLoyaltyMember, type LoyaltyMember } from './loyalty-member.repo.ts';
import { authorizedMember, loyaltyPassTexts, memberName } from './loyalty-member.service.ts';

type WalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone' | 'supportEmail' | 'apple'>;

export interface AppleWalletContext extends TicketContext {
  config: WalletConfig;
  wallet: AppleWallet;
}

export interface PassKitContext {
  db: Executor;
  /** The server key every pass's authentication token is derived from. */
  keys: Keys;
  ticketChanges: TicketChanges;
  config: WalletConfig;
  wallet: AppleWallet;
  log: FastifyBaseLogger;
}

/** A barcode starting with 34 gets the NFC variant, unless an NFC-only exclusion matches. */
export const NFC_BARCODE_PREFIX = '34';

/** '#1b4965' -> 'rgb(27, 73, 101)', the colour form pass.json takes. */
export function rgb(hex: string): string {
  const n = Number.parseInt(hex.replace(/^#/, ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** W3C date without milliseconds, as pass.json's dates are written. */
const w3cDate = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Field {
  key: string;
  label: string;
  value: string | number;
  changeMessage?: string;
  textAlignment?: string;
  numberStyle?: string;
}

/** What a pass shows, hashed: it changes exactly when the pass would look different (whatever its serial number). */
function contentHashOf(pass: Record<string, unknown>, files: Record<string, Uint8Array>) {
  const hash = createHash('sha256').update(JSON.stringify({ ...pass, serialNumber: '' }));
  for (const [name, data] of Object.entries(files)) hash.update(`\0${name}\0`).update(data);
  return hash.digest('base64url');
}

/** The keys every pass of the brand starts with (in this order: the content hash is of the JSON text). */
function passBase(config: WalletConfig, serialNumber: string, description: string, colors: { background: string; foreground: string }) {
  return {
    formatVersion: 1,
    passTypeIdentifier: config.apple.passTypeId,
    teamIdentifier: config.apple.teamId,
    serialNumber,
    webServiceURL: `${config.publicUrl}/api/passkit`,
    organizationName: config.brandName,
    description,
    logoText: config.brandName,
    backgroundColor: rgb(colors.background),
    foregroundColor: rgb(colors.foreground),
    labelColor: rgb(colors.foreground),
    sharingProhibited: true,
  };
}

export interface PassContentInput {
  order: PassOrder;
  row: Pick<NonNullable<PassRow>, 'customization' | 'exclusion'>;
  serialNumber: string;
  photoPng: Buffer | null;
  config: WalletConfig;
  nfcPublicKey: string;
}

export interface PassContent {
  /** pass.json without its authenticationToken (each pass gets its own). */
  pass: Record<string, unknown>;
  files: Record<string, Uint8Array>;
  /** SHA-256 of everything the pass shows: it changes exactly when the pass would look different. */
  contentHash: string;
}

/** What the pass of a ticket shows, in pass.json's terms. */
export function applePassContent({ order, row, serialNumber, photoPng, config, nfcPublicKey }: PassContentInput): PassContent {
  const { date, dateTime } = dateFormats(config.parkTimezone);
  const holder = ticketholderName(order);
  const product = order.refunded ? `${order.product} (Refunded)` : order.product;

  const { label, value } = balanceText(order);
  const balance: Field = {
    key: 'balance',
    label,
    value,
    changeMessage: `Your ${label.toLowerCase()} is now %@`,
    textAlignment: 'PKTextAlignmentRight',
  };
  const secondary: Field[] = [{ key: 'product', label: 'Product', value: product }];
  const purchaser = purchaserName(order);
  if (purchaser) secondary.push({ key: 'purchaser', label: 'Purchaser', value: purchaser });
  const auxiliary: Field[] = [];
  if (order.orderDate) auxiliary.push({ key: 'orderDate', label: 'Order Date', value: date(order.orderDate) });
  if (order.expires) auxiliary.push({ key: 'expires', label: 'Expires', value: date(order.expires), changeMessage: 'Now expires %@' });
  if (order.redeemed) auxiliary.push({ key: 'redeemed', label: 'Redeemed', value: dateTime(order.redeemed) });
  const back: Field[] = [];
  const instructions = row.customization?.instructions?.trim();
  if (instructions) back.push({ key: 'instructions', label: 'Instructions', value: instructions });
  back.push({ key: 'support', label: 'Guest Services', value: config.supportEmail });

  const pass: Record<string, unknown> = {
    ...passBase(config, serialNumber, `${config.brandName} ${order.product}`, {
      background: order.backgroundColor,
      foreground: order.foregroundColor,
    }),
    generic: {
      headerFields: [balance],
      primaryFields: [
        holder ? { key: 'holder', label: 'Ticketholder', value: holder } : { key: 'holder', label: 'Product', value: product },
      ],
      secondaryFields: secondary,
      auxiliaryFields: auxiliary,
      backFields: back,
    },
  };
  if (!row.customization?.hideBarcode) {
    pass.barcodes = [{ format: 'PKBarcodeFormatCode128', message: order.barcode, messageEncoding: 'iso-8859-1', altText: order.barcode }];
  }
  if (order.refunded) pass.voided = true;
  if (order.expires) pass.expirationDate = w3cDate(order.expires);
  if (order.barcode.startsWith(NFC_BARCODE_PREFIX) && !row.exclusion?.excludeNfc) {
    pass.nfc = { message: order.barcode, encryptionPublicKey: nfcPublicKey };
  }
  const files: Record<string, Uint8Array> = photoPng ? { 'thumbnail.png': photoPng } : {};
  return { pass, files, contentHash: contentHashOf(pass, files) };
}

/** What a loyalty member's card shows: a store card with the balance, the name and the member number as its barcode. */
export function loyaltyApplePassContent(member: LoyaltyMember, config: WalletConfig, serialNumber = ''): PassContent {
  const pass: Record<string, unknown> = {
    ...passBase(config, serialNumber, `${config.brandName} ${loyaltyPassTexts.programName}`, config.defaultPassColors),
    storeCard: {
      headerFields: [
        {
          key: 'balance',
          label: loyaltyPassTexts.pointsLabel,
          value: member.balance,
          numberStyle: 'PKNumberStyleDecimal',
          changeMessage: loyaltyPassTexts.changeMessage,
          textAlignment: 'PKTextAlignmentRight',
        },
      ],
      primaryFields: [{ key: 'member', label: loyaltyPassTexts.memberLabel, value: memberName(member) }],
      secondaryFields: [{ key: 'memberNumber', label: loyaltyPassTexts.memberNumberLabel, value: member.memberNumber }],
      backFields: [{ key: 'support', label: 'Guest Services', value: config.supportEmail }],
    } satisfies Record<string, Field[]>,
    barcodes: [
      { format: 'PKBarcodeFormatCode128', message: member.memberNumber, messageEncoding: 'iso-8859-1', altText: member.memberNumber },
    ],
  };
  return { pass, files: {}, contentHash: contentHashOf(pass, {}) };
}

/** What the card shows once the member was removed: voided, with nothing personal (no name, number, balance or barcode). */
export function voidedLoyaltyApplePassContent(config: WalletConfig, serialNumber = ''): PassContent {
  const pass: Record<string, unknown> = {
    ...passBase(config, serialNumber, `${config.brandName} ${loyaltyPassTexts.programName}`, config.defaultPassColors),
    voided: true,
    storeCard: {
      primaryFields: [{ key: 'status', label: loyaltyPassTexts.programName, value: loyaltyPassTexts.membershipEnded }],
      backFields: [{ key: 'support', label: 'Guest Services', value: config.supportEmail }],
    } satisfies Record<string, Field[]>,
  };
  return { pass, files: {}, contentHash: contentHashOf(pass, {}) };
}

/**
 * The authentication token of a pass (Apple wants at least 16 characters: 43 here): a keyed
 * hash of its serial number under the server key, so every download of the pass carries the
 * same token and nothing is stored per download.
 */
export const passTokenOf = (keys: Keys, serialNumber: string) => keys.keyedHash('passkit-token', serialNumber);

/** What the ticket's pass shows now, its holder photo included. */
async function currentPassContent(
  ctx: Pick<PassKitContext, 'db' | 'config' | 'wallet'>,
  row: NonNullable<PassRow>,
  serialNumber: string,
): Promise<PassContent> {
  const photoPng = row.photoUid ? await findPhotoPng(ctx.db, row.ticket.barcode) : null;
  return applePassContent({
    order: toPassOrder(row, ctx),
    row,
    serialNumber,
    photoPng,
    config: ctx.config,
    nfcPublicKey: ctx.wallet.nfcPublicKey,
  });
}

/** POST /api/apple-wallet/: the signed .pkpass of the ticket. */
export async function createApplePass(ctx: AppleWalletContext, request: TicketWalletRequest): Promise<Buffer> {
  const row = await findWalletTicket(ctx, request);
  // One pass per ticket, showing the ticket's own holder whoever adds it.
  const order = toPassOrder(row, ctx);
  if (order.excluded) throw new AppError('FORBIDDEN', order.excluded);
  if (row.iCloudBoundToWallet) throw new AppError('CONFLICT', guestMessages.alreadyInWallet(ctx.config.supportEmail));

  // The serial number is the row's own; the content hash does not depend on it.
  const draft = await currentPassContent(ctx, row, '');
  return signedNewPass(ctx, { barcode: row.ticket.barcode }, draft);
}

/** Records the pass and signs it with the pass's own token. */
async function signedNewPass(
  ctx: { db: Executor; wallet: AppleWallet; keys: Keys },
  holder: PassHolder,
  draft: PassContent,
): Promise<Buffer> {
  const serialNumber = await saveApplePass(ctx.db, { holder, contentHash: draft.contentHash });
  return ctx.wallet.builder.build({ ...draft.pass, serialNumber, authenticationToken: passTokenOf(ctx.keys, serialNumber) }, draft.files);
}

export interface LoyaltyAppleWalletContext {
  db: Executor;
  keys: Keys;
  config: WalletConfig;
  wallet: AppleWallet;
  ticketChanges: TicketChanges;
}

/**
 * POST /api/apple-wallet/ (loyalty variant): the member's signed store card. A card can be
 * added again (another device): the stored content stays what the devices that have the card
 * were last told, and the account is published, so that a balance change still waiting in the
 * queue reaches them too.
 */
export async function createLoyaltyApplePass(ctx: LoyaltyAppleWalletContext, request: LoyaltyWalletRequest): Promise<Buffer> {
  const member = await authorizedMember(ctx, request);
  const pkpass = await signedNewPass(ctx, { loyaltyAccountId: member.id }, loyaltyApplePassContent(member, ctx.config));
  await ctx.db.transaction((tx) => ctx.ticketChanges.publishLoyaltyAccounts(tx, [member.id]));
  return pkpass;
}

// ---- PassKit web service -------------------------------------------------------------------

/** The token of an `Authorization: ApplePass <token>` header, or null. */
export function applePassToken(authorization: string | undefined): string | null {
  const match = /^ApplePass ([A-Za-z0-9_\-+/=]{16,200})$/.exec(authorization?.trim() ?? '');
  return match?.[1] ?? null;
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'The pass authentication token is not valid');
const passTypeNotServed = () => new AppError('NOT_FOUND', 'Unknown pass type identifier');

function assertPassType(ctx: PassKitContext, passTypeIdentifier: string) {
  if (passTypeIdentifier !== ctx.config.apple.passTypeId) throw passTypeNotServed();
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The pass a web service call names, when its token is the pass's own (derived from the
 * serial number) or one the pass was issued with before tokens were derived.
 */
async function authenticatedPass(ctx: PassKitContext, serialNumber: string, authorization: string | undefined) {
  const token = applePassToken(authorization);
  if (!token) throw unauthorized();
  const valid = sameText(token, passTokenOf(ctx.keys, serialNumber)) || (await isLegacyPassToken(ctx.db, serialNumber, hashSecret(token)));
  if (!valid) throw unauthorized();
  const pass = await findPassBySerialNumber(ctx.db, serialNumber);
  if (!pass) throw unauthorized();
  return { pass, token };
}

export interface RegistrationInput {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  serialNumber: string;
  authorization: string | undefined;
}

/**
 * A device added the pass: from now on the ticket is bound to a wallet and the device gets
 * pushes. A pass keeps at most PASSKIT_DEVICES_PER_PASS devices: a new one pushes out the
 * registration least recently renewed (a guest who changes phones keeps getting updates on
 * the new one; Apple's web service has no "too many" answer a device would show). A voided
 * member card takes no new device (answered as already registered).
 */
export async function registerDevice(
  ctx: PassKitContext,
  input: RegistrationInput & { pushToken: string },
): Promise<'created' | 'updated'> {
  assertPassType(ctx, input.passTypeIdentifier);
  const { pass } = await authenticatedPass(ctx, input.serialNumber, input.authorization);
  if (pass.voidedAt) return 'updated';
  // Binding the ticket to a wallet is a ticket change: published with it.
  const { outcome, removed } = await ctx.db.transaction(async (tx) => {
    if (!(await lockPass(tx, pass.serialNumber))) throw unauthorized();
    const result = await upsertDeviceRegistration(tx, {
      deviceLibraryIdentifier: input.deviceLibraryIdentifier,
      serialNumber: pass.serialNumber,
      pushToken: input.pushToken,
    });
    const trimmed = await trimDeviceRegistrations(tx, pass.serialNumber, input.deviceLibraryIdentifier, ctx.config.apple.devicesPerPass);
    if (pass.barcode) await ctx.ticketChanges.publish(tx, [pass.barcode]);
    return { outcome: result, removed: trimmed };
  });
  ctx.log.info({ serialNumber: pass.serialNumber, outcome, ...(removed > 0 && { removed }) }, 'Apple Wallet: device registered for a pass');
  return outcome;
}

/** A device removed the pass. */
export async function unregisterDevice(ctx: PassKitContext, input: RegistrationInput): Promise<void> {
  assertPassType(ctx, input.passTypeIdentifier);
  const { pass } = await authenticatedPass(ctx, input.serialNumber, input.authorization);
  const removed = await ctx.db.transaction(async (tx) => {
    const deleted = await deleteDeviceRegistration(tx, input.deviceLibraryIdentifier, pass.serialNumber);
    if (deleted && pass.barcode) await ctx.ticketChanges.publish(tx, [pass.barcode]);
    return deleted;
  });
  ctx.log.info({ serialNumber: pass.serialNumber, removed }, 'Apple Wallet: device unregistered from a pass');
}

/**
 * The device's passes updated since the tag; null when none (answered 204). A voided member
 * card in the answer is the device's last news of it: its registration is removed (the
 * device fetches the voided card with the card's token, which keeps working, and is pushed
 * nothing more).
 */
export async function updatedSerialNumbers(
  ctx: PassKitContext,
  input: { deviceLibraryIdentifier: string; passTypeIdentifier: string; passesUpdatedSince?: string | undefined },
): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  assertPassType(ctx, input.passTypeIdentifier);
  const rows = await findUpdatedSerialNumbers(ctx.db, input.deviceLibraryIdentifier, input.passesUpdatedSince);
  if (rows.length === 0) return null;
  const voided = rows.filter((r) => r.voided).map((r) => r.serialNumber);
  if (voided.length > 0) {
    const removed = await deleteDeviceRegistrations(ctx.db, input.deviceLibraryIdentifier, voided);
    ctx.log.info({ serialNumbers: voided, removed }, 'Apple Wallet: device told of its voided cards; registrations removed');
  }
  const lastUpdated = rows.reduce((max, r) => (BigInt(r.tag) > BigInt(max) ? r.tag : max), rows[0]!.tag);
  return { serialNumbers: rows.map((r) => r.serialNumber), lastUpdated };
}

/** The latest version of a pass, signed anew with the device's own token; null when not modified since. */
export async function latestPass(
  ctx: PassKitContext,
  input: { passTypeIdentifier: string; serialNumber: string; authorization: string | undefined; ifModifiedSince: string | undefined },
): Promise<{ pkpass: Buffer; lastModified: Date } | { notModified: true; lastModified: Date }> {
  assertPassType(ctx, input.passTypeIdentifier);
  const { pass, token } = await authenticatedPass(ctx, input.serialNumber, input.authorization);
  // HTTP dates have whole seconds.
  const lastModified = new Date(Math.floor(pass.updatedAt.getTime() / 1000) * 1000);
  const since = input.ifModifiedSince ? Date.parse(input.ifModifiedSince) : Number.NaN;
  if (!Number.isNaN(since) && lastModified.getTime() <= since) return { notModified: true, lastModified };

  const content = await currentContentOf(ctx, pass);
  if (!content) throw unauthorized();
  return { pkpass: ctx.wallet.builder.build({ ...content.pass, authenticationToken: token }, content.files), lastModified };
}

/** What a pass shows now, a ticket's or a member's (voided once the member was removed); null when its holder is gone. */
async function currentContentOf(
  ctx: Pick<PassKitContext, 'db' | 'config' | 'wallet'>,
  pass: { serialNumber: string; barcode: string | null; orderId: string | null; loyaltyAccountId: string | null; voidedAt?: Date | null },
): Promise<PassContent | null> {
  if (pass.voidedAt) return voidedLoyaltyApplePassContent(ctx.config, pass.serialNumber);
  if (pass.loyaltyAccountId) {
    const member = await findLoyaltyMember(ctx.db, pass.loyaltyAccountId);
    return member && loyaltyApplePassContent(member, ctx.config, pass.serialNumber);
  }
  if (!pass.barcode || !pass.orderId) return null;
  const row = await findPassByBarcode(ctx.db, { orderId: pass.orderId, barcode: pass.barcode });
  return row && currentPassContent(ctx, row, pass.serialNumber);
}

/** What the delivery jobs of Apple passes need. */
export interface AppleDeliveryContext extends PassKitContext {
  jobs: JobQueue;
}

/**
 * A ticket changed (in the ticket-changed job's transaction): what its Apple pass shows is
 * computed again; when it differs, the update tag moves and every registered device gets a
 * push job (when APNs is configured; otherwise the update is recorded and logged).
 */
export async function compareApplePass(ctx: AppleDeliveryContext, tx: Executor, barcode: string): Promise<void> {
  const [pass] = await findApplePasses(tx, [barcode]);
  if (!pass) return;
  const content = await currentContentOf({ ...ctx, db: tx }, { ...pass, loyaltyAccountId: null });
  if (content) await deliverIfChanged(ctx, tx, { ...pass, barcode }, content.contentHash);
}

/** A loyalty member's ledger or details changed (in the job's transaction): their card is compared and pushed like a ticket's. */
export async function compareLoyaltyApplePass(ctx: AppleDeliveryContext, tx: Executor, loyaltyAccountId: string): Promise<void> {
  const pass = await findLoyaltyPass(tx, loyaltyAccountId);
  const member = pass?.contentHash ? await findLoyaltyMember(tx, loyaltyAccountId) : null;
  if (pass && member) await deliverIfChanged(ctx, tx, { ...pass, barcode: null }, loyaltyApplePassContent(member, ctx.config).contentHash);
}

/** A member card was voided (in the job's transaction): every device that has it is pushed the voided card. */
export async function compareVoidedApplePass(ctx: AppleDeliveryContext, tx: Executor, serialNumber: string): Promise<void> {
  const pass = await findVoidedPass(tx, serialNumber);
  if (pass) await deliverIfChanged(ctx, tx, { ...pass, barcode: null }, voidedLoyaltyApplePassContent(ctx.config).contentHash);
}

/** When the pass shows something new, its update tag moves and every registered device gets a push job. */
async function deliverIfChanged(
  ctx: AppleDeliveryContext,
  tx: Executor,
  pass: { serialNumber: string; contentHash: string | null; barcode: string | null },
  contentHash: string,
): Promise<void> {
  if (contentHash === pass.contentHash || !(await updateContentHash(tx, pass.serialNumber, contentHash))) return;
  const { barcode } = pass;
  const details = { serialNumber: pass.serialNumber, ...(barcode && { barcode: maskBarcode(barcode) }) };
  const devices = await findDeviceRegistrations(tx, pass.serialNumber);
  if (devices.length === 0 || !ctx.wallet.apns) {
    ctx.log.info(
      { ...details, devices: devices.length },
      `Apple Wallet pass update recorded; ${devices.length === 0 ? 'no device registered for it' : 'not pushed because APNs is not configured'}`,
    );
    return;
  }
  for (const device of devices) {
    const payload: ApplePushPayload = { serialNumber: pass.serialNumber, deviceLibraryIdentifier: device.deviceLibraryIdentifier };
    await queueDelivery(ctx.jobs, tx, {
      queue: QUEUES.applePush,
      target: 'apple',
      barcode,
      recipient: `device ${maskUrl(device.deviceLibraryIdentifier).slice(0, 12)}…`,
      payload,
      // A push waiting for this device already makes it fetch the latest pass.
      singletonKey: `${device.deviceLibraryIdentifier}:${pass.serialNumber}`,
    });
  }
}

export interface ApplePushPayload {
  serialNumber: string;
  deviceLibraryIdentifier: string;
}

/**
 * One APNs push to one device. A 410 means the device no longer has the pass: its
 * registration is removed and the push is not tried again.
 */
export async function pushToDevice(ctx: AppleDeliveryContext, job: RunningJob<ApplePushPayload & DeliveryJobData>): Promise<void> {
  const { serialNumber, deviceLibraryIdentifier } = job.data;
  await tryDelivery(ctx.db, job, async () => {
    const apns = ctx.wallet.apns;
    if (!apns) return { state: 'skipped', note: 'APNs is not configured' };
    const device = await findDeviceRegistration(ctx.db, deviceLibraryIdentifier, serialNumber);
    if (!device) return { state: 'skipped', note: 'The device no longer has the pass' };
    const result = await apns.push(device.pushToken);
    if (result.outcome === 'unregistered') {
      await deleteDeviceRegistration(ctx.db, deviceLibraryIdentifier, serialNumber);
      ctx.log.info({ serialNumber }, 'Apple Wallet: APNs says the device no longer has the pass; registration removed');
      return { state: 'skipped', note: 'APNs answered 410: the device no longer has the pass; registration removed' };
    }
    if (result.outcome === 'failed')
      throw new Error(`APNs answered ${result.status ?? 'nothing'}${result.reason ? ` (${result.reason})` : ''}`);
    ctx.log.info({ serialNumber }, 'Apple Wallet: update pushed to a device');
    return { state: 'sent' };
  });
}
