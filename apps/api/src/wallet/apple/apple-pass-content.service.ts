// What an Apple Wallet pass shows, in pass.json's terms, and the hash of it that tells when a
// pass changed. A ticket's pass has the style that fits it (pass-style.service.ts): a dated
// admission is an event ticket, a Stored Value Card a store card, a season pass and other
// tickets the generic style with the holder photo as its thumbnail. A loyalty member's card
// is a store card: the points balance, the member's name, number (the barcode) and tier; a removed
// member's card is voided and shows nothing personal.
import { createHash } from 'node:crypto';
import type { PassTexts } from '@boardwalk/contract/i18n/passes';
import { textsIn } from '@boardwalk/contract/i18n/staff-texts';
import type { PassOrder } from '@boardwalk/contract/pass';
import { isStoredValueCard, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type { Executor } from '@boardwalk/db/client';
import type { AppleWallet } from './apple-wallet.plugin.ts';
import type { Config } from '../../platform/config.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { findPhotoPng } from '../../guest/ticket/holder-photo.repo.ts';
import { toPassOrder, type PassRow, type TicketCore } from '../../guest/ticket/ticket.service.ts';
import { cardExpiring, findMemberCard, memberName, type MemberCard } from '../../loyalty/loyalty-member.service.ts';
import { challengeText, voidReasonText } from '../../guest/ticket/pass-texts.ts';
import type { MemberChallenge } from '../../loyalty/loyalty-challenges.service.ts';
import { passStrings, type PassStrings } from './apple-pass-strings.ts';
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
  /** A date the phone formats in its language (PassKit's styles), in the time zone written (ignoresTimeZone). */
  dateStyle?: string;
  timeStyle?: string;
  ignoresTimeZone?: boolean;
  /** An amount the phone formats in its language. */
  currencyCode?: string;
}

/** The time zone's offset at a moment, as W3C writes it ("-08:00"); formats made once per zone. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetAt(at: Date, timeZone: string): string {
  let format = offsetFormats.get(timeZone);
  if (!format) offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

/** A moment as the park's clock reads it, with its offset ("2030-12-31T23:59:59-08:00"): the phone shows that day and time. */
function parkMoment(iso: string, timeZone: string): string {
  const at = new Date(iso);
  const offset = offsetAt(at, timeZone);
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = offset.slice(1).split(':').map(Number);
  const local = new Date(at.getTime() + sign * ((hours ?? 0) * 60 + (minutes ?? 0)) * 60_000);
  return local.toISOString().replace(/\.\d{3}Z$/, offset);
}

/** A date field the phone writes in its language ("Nov 20, 2026"), on the park's calendar; withTime adds the time ("2:05 PM"). */
const dateField = (key: string, label: string, iso: string, timeZone: string, withTime = false): Field => ({
  key,
  label,
  value: parkMoment(iso, timeZone),
  dateStyle: 'PKDateStyleMedium',
  timeStyle: withTime ? 'PKDateStyleShort' : 'PKDateStyleNone',
  ignoresTimeZone: true,
});

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

/** relevantDates (iOS 18) and relevantDate (older iOS: the first opening), and the locations, in pass.json's terms. */
function relevanceKeys({ hours, locations }: Relevance, strings: PassStrings): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  if (hours.length > 0) {
    keys.relevantDates = hours.map((h) => ({ startDate: w3cDate(h.opensAt.toISOString()), endDate: w3cDate(h.closesAt.toISOString()) }));
    keys.relevantDate = w3cDate(hours[0]!.opensAt.toISOString());
  }
  if (locations.length > 0) {
    keys.locations = locations.map((l) => {
      const relevantText = textsIn(l, 'relevantText');
      return { latitude: l.latitude, longitude: l.longitude, ...(relevantText ? { relevantText: strings.staff(relevantText) } : {}) };
    });
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
  const zone = config.parkTimezone;
  const strings = passStrings(zone);
  const label = (key: keyof PassTexts['label']) => strings.fixed(`label.${key}`);
  const holder = ticketholderName(order);
  const product = voidReason
    ? strings.text((t) => t('value.voided', { product: order.product, reason: voidReasonText(voidReason, t) }))
    : order.product;
  const style = passStyleOf(order);

  const balance: Field = isStoredValueCard(order)
    ? {
        key: 'balance',
        label: label('credits'),
        value: strings.text((t) => t('value.credits', { credits: order.credits })),
        changeMessage: strings.fixed('changed.credits'),
        textAlignment: 'PKTextAlignmentRight',
      }
    : {
        key: 'balance',
        label: label('balance'),
        value: order.cash,
        currencyCode: 'USD',
        changeMessage: strings.fixed('changed.balance'),
        textAlignment: 'PKTextAlignmentRight',
      };
  const holderField: Field = { key: 'holder', label: label('ticketholder'), value: holder };
  const secondary: Field[] = [{ key: 'product', label: label('product'), value: product }];
  const purchaser = purchaserName(order);
  if (purchaser) secondary.push({ key: 'purchaser', label: label('purchaser'), value: purchaser });
  const auxiliary: Field[] = [];
  const back: Field[] = [];
  // A season pass's next reservation comes first; its order date then goes to the back (a pass
  // with a rectangular barcode shows four secondary and auxiliary fields at most).
  const next = relevance.nextVisit;
  if (next) {
    auxiliary.push({
      key: 'visit',
      label: label('reservation'),
      value: strings.text((t) => t('value.visitWindow', { start: next.startsAt, end: next.endsAt })),
      changeMessage: strings.fixed('changed.reservation'),
    });
  }
  if (order.orderDate) (next ? back : auxiliary).push(dateField('orderDate', label('orderDate'), order.orderDate, zone));
  if (order.expires)
    auxiliary.push({
      ...dateField('expires', label('expires'), order.expires, zone),
      changeMessage: strings.fixed('changed.expires'),
    });
  if (order.redeemed) auxiliary.push(dateField('redeemed', label('redeemed'), order.redeemed, zone, true));
  const instructions = row.customization && textsIn(row.customization, 'instructions');
  if (instructions) back.push({ key: 'instructions', label: label('instructions'), value: strings.staff(instructions) });
  // The park's notices, each told on the lock screen when it comes (its own message).
  (relevance.notices ?? []).forEach((notice, i) =>
    back.push({ key: `notice${i}`, label: label('notice'), value: strings.staff(textsIn(notice, 'text')!), changeMessage: '%@' }),
  );
  back.push({ key: 'support', label: label('guestServices'), value: config.supportEmail });

  const base = passBase(config, serialNumber, `${config.brandName} ${order.product}`, {
    background: order.backgroundColor,
    foreground: order.foregroundColor,
  });
  const pass: Record<string, unknown> = { ...base };
  if (style === 'admission') {
    const { hours, locations } = relevance;
    const opens = hours[0]?.opensAt;
    const closes = hours.at(-1)?.closesAt;
    // The visit day is a calendar day: noon of it in UTC, shown as written.
    const visitDay = dateField('visitDate', label('visitDate'), `${order.visitDate}T12:00:00Z`, 'UTC');
    pass.eventTicket = {
      headerFields: [{ ...visitDay, changeMessage: strings.fixed('changed.visitDate') }],
      primaryFields: [{ key: 'event', label: label('admission'), value: product }],
      secondaryFields: holder ? [holderField, ...secondary.slice(1)] : secondary.slice(1),
      auxiliaryFields: [
        ...(opens && closes
          ? [
              {
                key: 'hours',
                label: label('parkHours'),
                value: strings.text((t) => t('value.hours', { opens, closes })),
                changeMessage: strings.fixed('changed.parkHours'),
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
      primaryFields: [holder ? holderField : { key: 'holder', label: label('product'), value: product }],
      secondaryFields: secondary,
      auxiliaryFields: auxiliary,
      backFields: back,
    } satisfies Record<string, Field[]>;
  }
  Object.assign(pass, relevanceKeys(relevance, strings));
  if (!row.customization?.hideBarcode) {
    pass.barcodes = [{ format: 'PKBarcodeFormatCode128', message: order.barcode, messageEncoding: 'iso-8859-1', altText: order.barcode }];
  }
  if (voidReason) pass.voided = true;
  if (order.expires) pass.expirationDate = w3cDate(order.expires);
  if (order.barcode.startsWith(NFC_BARCODE_PREFIX) && !row.exclusion?.excludeNfc) {
    pass.nfc = { message: order.barcode, encryptionPublicKey: nfcPublicKey };
  }
  // The holder photo is the generic style's thumbnail (a season pass's); the other styles show none.
  const files: Record<string, Uint8Array> = {
    ...strings.files(),
    ...(photoPng && style !== 'admission' && style !== 'storedValue' && { 'thumbnail.png': photoPng }),
  };
  return { pass, files, contentHash: contentHashOf(pass, files) };
}

/**
 * A challenge's field, keyed by its campaign (a field keeps its key wherever it shows): its name,
 * the member's progress, and once complete what it earned, with a lock-screen message then only
 * (the value changes once more, to that).
 */
function challengeField(challenge: MemberChallenge, strings: PassStrings): Field {
  return {
    key: `challenge-${challenge.campaignId}`,
    label: strings.staff(textsIn(challenge.names, 'name')!),
    value: strings.text((t) => challengeText(challenge, t)),
    ...(challenge.completed && { changeMessage: strings.fixed('changed.challenge') }),
  };
}

/** Fields beside the secondary ones on a store card's front (Apple shows four secondary and auxiliary fields at most). */
const STORE_CARD_AUXILIARY_ROOM = 2;

/**
 * What a loyalty member's card shows: a store card with the balance, the name, the tier, the
 * points expiring within 30 days, the challenges running (on the front while there is room, then
 * on the back) and the member number; its barcode carries the card token (what a till spends
 * against), the member number its text.
 */
export function loyaltyApplePassContent(member: MemberCard, config: WalletConfig, serialNumber = ''): PassContent {
  const strings = passStrings(config.parkTimezone);
  const expiringSoon = cardExpiring(member);
  const expiring = expiringSoon && strings.text((t) => t('member.expiring', expiringSoon));
  const auxiliary: Field[] = expiring ? [{ key: 'expiring', label: strings.text((t) => t('member.expiringLabel')), value: expiring }] : [];
  const challenges = member.challenges.map((challenge) => challengeField(challenge, strings));
  const front = challenges.slice(0, STORE_CARD_AUXILIARY_ROOM - auxiliary.length);
  auxiliary.push(...front);
  const pass: Record<string, unknown> = {
    ...passBase(
      config,
      serialNumber,
      strings.text((t) => t('member.description', { brand: config.brandName })),
      config.defaultPassColors,
    ),
    storeCard: {
      headerFields: [
        {
          key: 'balance',
          label: strings.fixed('member.points'),
          value: member.balance,
          numberStyle: 'PKNumberStyleDecimal',
          changeMessage: strings.fixed('changed.points'),
          textAlignment: 'PKTextAlignmentRight',
        },
      ],
      primaryFields: [{ key: 'member', label: strings.fixed('member.member'), value: memberName(member) }],
      secondaryFields: [
        { key: 'memberNumber', label: strings.fixed('member.memberNumber'), value: member.memberNumber },
        {
          key: 'tier',
          label: strings.fixed('member.tier'),
          value: member.tierNames ? strings.staff(member.tierNames) : strings.fixed('member.noTier'),
          changeMessage: strings.fixed('changed.tier'),
          textAlignment: 'PKTextAlignmentRight',
        },
      ],
      ...(auxiliary.length > 0 && { auxiliaryFields: auxiliary }),
      backFields: [
        ...challenges.slice(front.length),
        { key: 'support', label: strings.fixed('label.guestServices'), value: config.supportEmail },
      ],
    } satisfies Record<string, Field[]>,
    barcodes: [
      { format: 'PKBarcodeFormatCode128', message: member.cardToken, messageEncoding: 'iso-8859-1', altText: member.memberNumber },
    ],
  };
  const files = strings.files();
  return { pass, files, contentHash: contentHashOf(pass, files) };
}

/** What the card shows once the member was removed: voided, with nothing personal (no name, number, balance or barcode). */
export function voidedLoyaltyApplePassContent(config: WalletConfig, serialNumber = ''): PassContent {
  const strings = passStrings(config.parkTimezone);
  const programName = strings.fixed('member.programName');
  const pass: Record<string, unknown> = {
    ...passBase(
      config,
      serialNumber,
      strings.text((t) => t('member.description', { brand: config.brandName })),
      config.defaultPassColors,
    ),
    voided: true,
    storeCard: {
      primaryFields: [{ key: 'status', label: programName, value: strings.fixed('member.membershipEnded') }],
      backFields: [{ key: 'support', label: strings.fixed('label.guestServices'), value: config.supportEmail }],
    } satisfies Record<string, Field[]>,
  };
  const files = strings.files();
  return { pass, files, contentHash: contentHashOf(pass, files) };
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
    const member = await findMemberCard(ctx.db, pass.loyaltyAccountId, { timeZone: ctx.config.parkTimezone });
    return member && loyaltyApplePassContent(member, ctx.config, pass.serialNumber);
  }
  if (!pass.barcode || !pass.orderId) return null;
  const row = await ctx.tickets.findPass(ctx.db, { orderId: pass.orderId, barcode: pass.barcode });
  return row && currentPassContent(ctx, row, pass.serialNumber, pass);
}
