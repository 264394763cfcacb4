// What an Apple Wallet pass shows, in pass.json's terms, and the hash of it that tells when a
// pass changed. A ticket's pass has the style that fits it (pass-style.service.ts): a dated
// admission is an event ticket, a Stored Value Card a store card, a season pass and other
// tickets the generic style with the holder photo as its thumbnail. A loyalty member's card
// is a store card: the points balance, the member's name, number (the barcode) and tier; a removed
// member's card is voided and shows nothing personal.
import { createHash } from 'node:crypto';
import type { PassOrder } from '@boardwalk/contract/pass';
import { balanceText, dateFormats, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type { Executor } from '@boardwalk/db/client';
import type { AppleWallet } from './apple-wallet.plugin.ts';
import type { Config } from '../../platform/config.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { findPhotoPng } from '../../guest/ticket/holder-photo.repo.ts';
import { toPassOrder, type PassRow, type TicketCore } from '../../guest/ticket/ticket.service.ts';
import { findLoyaltyMember, type LoyaltyMember } from '../../loyalty/loyalty.repo.ts';
import { cardExpiring, cardTier, loyaltyPassTexts, memberName } from '../../loyalty/loyalty-member.service.ts';
import { passStyleOf, relevanceOf, voidReasonOf, type Relevance, type VoidReason } from '../pass-style.service.ts';

export type WalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone' | 'supportEmail' | 'apple'>;

/** What reading a pass's current content needs (db: the caller's executor, a job's transaction or the pool). */
export interface PassContentContext {
  db: Executor;
  tickets: Pick<TicketCore, 'findPass'>;
  config: WalletConfig;
  appleWallet: Pick<AppleWallet, 'nfcPublicKey'>;
}

/** A barcode starting with 34 gets the NFC variant, unless an NFC-only exclusion matches. */
const NFC_BARCODE_PREFIX = '34';

/** '#1b4965' -> 'rgb(27, 73, 101)', the colour form pass.json takes. */
function rgb(hex: string): string {
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
  row: Pick<PassRow, 'customization' | 'exclusion'>;
  serialNumber: string;
  photoPng: Buffer | null;
  config: WalletConfig;
  nfcPublicKey: string;
  /** When and where the pass comes to the lock screen (none: never by itself). */
  relevance?: Relevance;
  /** Why the pass is void (voidReasonOf), null while valid. */
  voidReason?: VoidReason | null;
}

export interface PassContent {
  /** pass.json without its authenticationToken (each pass gets its own). */
  pass: Record<string, unknown>;
  files: Record<string, Uint8Array>;
  /** SHA-256 of everything the pass shows: it changes exactly when the pass would look different. */
  contentHash: string;
}

/** Hours as "10:00 AM" in the park. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();
function parkTime(at: Date, timeZone: string) {
  let format = timeFormats.get(timeZone);
  if (!format) timeFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' })));
  return format.format(at);
}

/** relevantDates (iOS 18) and relevantDate (older iOS: the first opening), and the locations, in pass.json's terms. */
function relevanceKeys({ hours, locations }: Relevance): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  if (hours.length > 0) {
    keys.relevantDates = hours.map((h) => ({ startDate: w3cDate(h.opensAt.toISOString()), endDate: w3cDate(h.closesAt.toISOString()) }));
    keys.relevantDate = w3cDate(hours[0]!.opensAt.toISOString());
  }
  if (locations.length > 0) {
    keys.locations = locations.map((l) => ({
      latitude: l.latitude,
      longitude: l.longitude,
      ...(l.relevantText ? { relevantText: l.relevantText } : {}),
    }));
  }
  return keys;
}

/**
 * What the pass of a ticket shows, in pass.json's terms, in the style that fits it
 * (passStyleOf): a dated admission an event ticket with semantic tags, a Stored Value Card a
 * store card with its balance, a season pass (and any other ticket) the generic style, which
 * shows the holder photo as its thumbnail.
 */
export function applePassContent(input: PassContentInput): PassContent {
  const { order, row, serialNumber, photoPng, config, nfcPublicKey } = input;
  const relevance = input.relevance ?? { hours: [], locations: [] };
  const voidReason = input.voidReason ?? null;
  const { date, dateTime } = dateFormats(config.parkTimezone);
  const holder = ticketholderName(order);
  const product = voidReason ? `${order.product} (${voidReason})` : order.product;
  const style = passStyleOf(order);

  const { label, value } = balanceText(order);
  const balance: Field = {
    key: 'balance',
    label,
    value,
    changeMessage: `Your ${label.toLowerCase()} is now %@`,
    textAlignment: 'PKTextAlignmentRight',
  };
  const holderField: Field = { key: 'holder', label: 'Ticketholder', value: holder };
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

  const base = passBase(config, serialNumber, `${config.brandName} ${order.product}`, {
    background: order.backgroundColor,
    foreground: order.foregroundColor,
  });
  const pass: Record<string, unknown> = { ...base };
  if (style === 'admission') {
    const { hours, locations } = relevance;
    const opens = hours[0]?.opensAt;
    const closes = hours.at(-1)?.closesAt;
    const visitDay = dateFormats('UTC').date(`${order.visitDate}T12:00:00Z`);
    pass.eventTicket = {
      headerFields: [{ key: 'visitDate', label: 'Date', value: visitDay, changeMessage: 'Your visit is now on %@' }],
      primaryFields: [{ key: 'event', label: 'Admission', value: product }],
      secondaryFields: holder ? [holderField, ...secondary.slice(1)] : secondary.slice(1),
      auxiliaryFields: [
        ...(opens && closes
          ? [
              {
                key: 'hours',
                label: 'Park Hours',
                value: `${parkTime(opens, config.parkTimezone)} – ${parkTime(closes, config.parkTimezone)}`,
                changeMessage: 'Park hours are now %@',
              },
            ]
          : []),
        { ...balance, textAlignment: 'PKTextAlignmentNatural' },
        ...auxiliary,
      ],
      backFields: back,
    } satisfies Record<string, Field[]>;
    const venue = locations[0];
    pass.semantics = {
      eventType: 'PKEventTypeGeneric',
      eventName: order.product,
      venueName: config.brandName,
      ...(venue && { venueLocation: { latitude: venue.latitude, longitude: venue.longitude } }),
      ...(opens && closes && { eventStartDate: w3cDate(opens.toISOString()), eventEndDate: w3cDate(closes.toISOString()) }),
      ...(holder && { attendeeName: holder }),
    };
  } else if (style === 'storedValue') {
    pass.storeCard = {
      headerFields: [],
      primaryFields: [{ ...balance, textAlignment: 'PKTextAlignmentNatural' }],
      secondaryFields: holder ? [holderField, ...secondary] : secondary,
      auxiliaryFields: auxiliary,
      backFields: back,
    } satisfies Record<string, Field[]>;
  } else {
    pass.generic = {
      headerFields: [balance],
      primaryFields: [holder ? holderField : { key: 'holder', label: 'Product', value: product }],
      secondaryFields: secondary,
      auxiliaryFields: auxiliary,
      backFields: back,
    } satisfies Record<string, Field[]>;
  }
  Object.assign(pass, relevanceKeys(relevance));
  if (!row.customization?.hideBarcode) {
    pass.barcodes = [{ format: 'PKBarcodeFormatCode128', message: order.barcode, messageEncoding: 'iso-8859-1', altText: order.barcode }];
  }
  if (voidReason) pass.voided = true;
  if (order.expires) pass.expirationDate = w3cDate(order.expires);
  if (order.barcode.startsWith(NFC_BARCODE_PREFIX) && !row.exclusion?.excludeNfc) {
    pass.nfc = { message: order.barcode, encryptionPublicKey: nfcPublicKey };
  }
  // The holder photo is the generic style's thumbnail (a season pass's); the other styles show none.
  const files: Record<string, Uint8Array> =
    photoPng && style !== 'admission' && style !== 'storedValue' ? { 'thumbnail.png': photoPng } : {};
  return { pass, files, contentHash: contentHashOf(pass, files) };
}

/**
 * What a loyalty member's card shows: a store card with the balance, the name, the tier, the
 * points expiring within 30 days and the member number; its barcode carries the card token (what
 * a till spends against), the member number its text.
 */
export function loyaltyApplePassContent(member: LoyaltyMember, config: WalletConfig, serialNumber = ''): PassContent {
  const expiring = cardExpiring(member, config.parkTimezone);
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
      secondaryFields: [
        { key: 'memberNumber', label: loyaltyPassTexts.memberNumberLabel, value: member.memberNumber },
        {
          key: 'tier',
          label: loyaltyPassTexts.tierLabel,
          value: cardTier(member),
          changeMessage: loyaltyPassTexts.tierChangeMessage,
          textAlignment: 'PKTextAlignmentRight',
        },
      ],
      ...(expiring && { auxiliaryFields: [{ key: 'expiring', label: loyaltyPassTexts.expiringLabel, value: expiring }] }),
      backFields: [{ key: 'support', label: 'Guest Services', value: config.supportEmail }],
    } satisfies Record<string, Field[]>,
    barcodes: [
      { format: 'PKBarcodeFormatCode128', message: member.cardToken, messageEncoding: 'iso-8859-1', altText: member.memberNumber },
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

/** Whose pass of a ticket it is (a shared guest's names its share) and why it last showed voided. */
export interface TicketPassFacts {
  shareId?: string | null;
  voidReason?: string | null;
}

/** What the ticket's pass shows now (a shared guest's pass too), its holder photo, relevance and void state included. */
export async function currentPassContent(
  ctx: PassContentContext,
  row: NonNullable<PassRow>,
  serialNumber: string,
  facts: TicketPassFacts = {},
): Promise<PassContent & { voidReason: VoidReason | null }> {
  // Whoever adds it, the pass shows the ticket's own holder.
  const order = toPassOrder(row, ctx);
  const shareStopped = !!facts.shareId && !row.shares.some((s) => s.id === facts.shareId);
  const voidReason = voidReasonOf(order, { shareStopped, stored: facts.voidReason ?? null });
  const photoPng = row.photoUid && passStyleOf(order) === 'season' ? await findPhotoPng(ctx.db, row.ticket.barcode) : null;
  const relevance = await relevanceOf(ctx.db, order, ctx.config.parkTimezone);
  const content = applePassContent({
    order,
    row,
    serialNumber,
    photoPng,
    config: ctx.config,
    nfcPublicKey: ctx.appleWallet.nfcPublicKey,
    relevance,
    voidReason,
  });
  return { ...content, voidReason };
}

/** What a pass shows now, a ticket's or a member's (voided once the member was removed); null when its holder is gone. */
export async function currentContentOf(
  ctx: PassContentContext,
  pass: TicketPassFacts & {
    serialNumber: string;
    barcode: string | null;
    orderId: string | null;
    loyaltyAccountId: string | null;
    voidedAt?: Date | null;
  },
): Promise<PassContent | null> {
  if (pass.voidedAt) return voidedLoyaltyApplePassContent(ctx.config, pass.serialNumber);
  if (pass.loyaltyAccountId) {
    const member = await findLoyaltyMember(ctx.db, pass.loyaltyAccountId);
    return member && loyaltyApplePassContent(member, ctx.config, pass.serialNumber);
  }
  if (!pass.barcode || !pass.orderId) return null;
  const row = await ctx.tickets.findPass(ctx.db, { orderId: pass.orderId, barcode: pass.barcode });
  return row && currentPassContent(ctx, row, pass.serialNumber, pass);
}
