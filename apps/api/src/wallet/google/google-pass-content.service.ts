// What a Google Wallet pass shows, in Google's terms: the classes (one per kind of pass) and
// the objects. A ticket's object has the class that fits it (pass-style.service.ts): a dated
// admission is an Event ticket, a Stored Value Card a Loyalty card with its credits, a season
// pass and other tickets a Generic pass (Google's type for passes that fit no vertical). The
// classes carry the park's locations. A loyalty member's card is Google's Loyalty pass: the
// program, the member and the points balance; a removed member's card is inactive and shows
// nothing personal.
import type { PassOrder } from '@boardwalk/contract/pass';
import { balanceText, dateFormats, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type {
  EventTicketClass,
  GenericClass,
  LocalizedString,
  LoyaltyClass,
  LoyaltyObject,
  MerchantLocation,
  ObjectState,
  SaveToWalletPayload,
  TextModule,
  WalletClass,
  WalletObject,
} from './google-wallet.ts';
import type { Config } from '../../platform/config.ts';
import type { PassRow } from '../../guest/ticket/ticket.service.ts';
import type { LoyaltyMember } from '../../loyalty/loyalty.repo.ts';
import { cardExpiring, cardTier, loyaltyPassTexts, memberName } from '../../loyalty/loyalty-member.service.ts';
import type { ParkLocation } from '../park-settings.repo.ts';
import { passStyleOf, type PassStyle, type Relevance, type VoidReason } from '../pass-style.service.ts';

export type GoogleWalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone'>;

/** The class of season passes and undated tickets. */
export const TICKET_CLASS_SUFFIX = 'park-ticket';
/** The class of dated admissions. */
export const ADMISSION_CLASS_SUFFIX = 'park-admission';
/** The class of Stored Value Cards. */
export const STORED_VALUE_CLASS_SUFFIX = 'stored-value';

const text = (value: string): LocalizedString => ({ defaultValue: { language: 'en-US', value } });
const row = (start: string, end: string) => ({
  twoItems: {
    startItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${start}']` }] } },
    endItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${end}']` }] } },
  },
});
const merchantLocations = (locations: ParkLocation[]): MerchantLocation[] =>
  locations.map(({ latitude, longitude }) => ({ latitude, longitude }));

/** Where Google posts the save and delete callbacks of every class's objects (the classes' callbackOptions). */
export const GOOGLE_CALLBACKS_PATH = '/api/google-wallet/callbacks';
const callbackOptions = (config: GoogleWalletConfig) => ({ url: `${config.publicUrl}${GOOGLE_CALLBACKS_PATH}` });

/** The program logo Google shows on a loyalty card (a PNG it fetches; Google takes no SVG). */
export const PROGRAM_LOGO_PATH = '/api/google-wallet/program-logo.png';
const programLogo = (config: GoogleWalletConfig) => ({
  sourceUri: { uri: `${config.publicUrl}${PROGRAM_LOGO_PATH}` },
  contentDescription: text(config.brandName),
});

export function ticketClass(issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[] = []): GenericClass {
  return {
    id: `${issuerId}.${TICKET_CLASS_SUFFIX}`,
    callbackOptions: callbackOptions(config),
    // A shared ticket (ticket shares) is saved by its guest and by the guests it is shared with.
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    classTemplateInfo: { cardTemplateOverride: { cardRowTemplateInfos: [row('product', 'balance'), row('order_date', 'expires')] } },
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
  };
}

export function admissionClass(issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[] = []): EventTicketClass {
  return {
    id: `${issuerId}.${ADMISSION_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    eventName: text(`${config.brandName} Admission`),
    reviewStatus: 'UNDER_REVIEW',
    ...(locations[0] && { venue: { name: text(config.brandName), address: text(locations[0].name) } }),
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
  };
}

export function storedValueClass(issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[] = []): LoyaltyClass {
  return {
    id: `${issuerId}.${STORED_VALUE_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    programName: 'Stored Value Card',
    programLogo: programLogo(config),
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
  };
}

/** The class of a ticket's pass style, as the REST collection it lives in. */
export function classOfStyle(style: PassStyle, issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[]): WalletClass {
  if (style === 'admission') return { kind: 'eventTicketClass', class: admissionClass(issuerId, config, locations) };
  if (style === 'storedValue') return { kind: 'loyaltyClass', class: storedValueClass(issuerId, config, locations) };
  return { kind: 'genericClass', class: ticketClass(issuerId, config, locations) };
}

/** The "Save to Google Wallet" payload of one class and one object. */
export function saveToWalletPayload(walletClass: WalletClass, target: WalletObject): SaveToWalletPayload {
  if (walletClass.kind === 'eventTicketClass' && target.kind === 'eventTicketObject')
    return { eventTicketClasses: [walletClass.class], eventTicketObjects: [target.object] };
  if (walletClass.kind === 'loyaltyClass' && target.kind === 'loyaltyObject')
    return { loyaltyClasses: [walletClass.class], loyaltyObjects: [target.object] };
  if (walletClass.kind === 'genericClass' && target.kind === 'genericObject')
    return { genericClasses: [walletClass.class], genericObjects: [target.object] };
  throw new Error(`A ${target.kind} does not belong to a ${walletClass.kind}`);
}

/** The class an object of this kind belongs to. */
export const classOfKind = (kind: WalletObject['kind'], issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[]) =>
  classOfStyle(STYLE_OF_KIND[kind]!, issuerId, config, locations);

/** Every ticket class (each created once, then updated when the park's locations change). */
export const ticketClasses = (issuerId: string, config: GoogleWalletConfig, locations: ParkLocation[]): WalletClass[] =>
  (['admission', 'storedValue', 'ticket'] as const).map((style) => classOfStyle(style, issuerId, config, locations));

function httpUrl(value: string | null | undefined): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A void pass is EXPIRED when it expired, INACTIVE for any other reason (refunded, redeemed, excluded, no longer shared). */
const walletState = (voidReason: VoidReason | null): ObjectState =>
  voidReason === null ? 'ACTIVE' : voidReason === 'Expired' ? 'EXPIRED' : 'INACTIVE';

export interface ObjectInput {
  order: PassOrder;
  customization: NonNullable<PassRow>['customization'];
  serialNumber: string;
  issuerId: string;
  config: GoogleWalletConfig;
  /** Put the holder photo on the pass (when the ticket has one). */
  withPhoto: boolean;
  /** Why the pass is void (voidReasonOf), null while valid. */
  voidReason: VoidReason | null;
  /** The visit day's hours of a dated admission (its valid time). */
  relevance?: Relevance;
  /** The kind of the object handed out (a Google object never changes kind); none: the kind that fits the ticket. */
  kind?: string | null;
}

/** The pass style an object of this kind shows. */
const STYLE_OF_KIND: Record<string, PassStyle> = { genericObject: 'ticket', eventTicketObject: 'admission', loyaltyObject: 'storedValue' };

/** The REST collection of a ticket's object in this style. */
export const objectKindOf = (style: PassStyle): WalletObject['kind'] =>
  style === 'admission' ? 'eventTicketObject' : style === 'storedValue' ? 'loyaltyObject' : 'genericObject';

/** The Google Wallet object of a ticket's pass, in the class that fits it: what the pass card shows, in Google's fields. */
export function toTicketObject(input: ObjectInput): WalletObject {
  const { order, customization, serialNumber, issuerId, config, withPhoto, voidReason } = input;
  const { date, dateTime } = dateFormats(config.parkTimezone);
  const holder = ticketholderName(order);
  const balance = balanceText(order);
  const style = (input.kind && STYLE_OF_KIND[input.kind]) || passStyleOf(order);

  const modules: TextModule[] = [
    { id: 'product', header: 'Product', body: voidReason ? `${order.product} (${voidReason})` : order.product },
    { id: 'balance', header: balance.label, body: balance.value },
  ];
  if (order.visitDate) modules.push({ id: 'visit_date', header: 'Date', body: dateFormats('UTC').date(`${order.visitDate}T12:00:00Z`) });
  if (order.orderDate) modules.push({ id: 'order_date', header: 'Order Date', body: date(order.orderDate) });
  if (order.expires) modules.push({ id: 'expires', header: 'Expires', body: date(order.expires) });
  if (order.redeemed) modules.push({ id: 'redeemed', header: 'Redeemed', body: dateTime(order.redeemed) });
  const purchaser = purchaserName(order);
  if (purchaser) modules.push({ id: 'purchaser', header: 'Purchaser', body: purchaser });
  // Staff write Google's own instructions; without them, the pass's general instructions.
  const instructions = customization?.googleInstructions?.trim() || customization?.instructions?.trim();
  if (instructions) modules.push({ id: 'instructions', header: 'Instructions', body: instructions });

  const id = `${issuerId}.${serialNumber}`;
  const state = walletState(voidReason);
  const barcode = customization?.hideBarcode
    ? undefined
    : { type: 'CODE_128' as const, value: order.barcode, alternateText: order.barcode };
  const link = httpUrl(customization?.googleUri);
  const linksModuleData = link ? { uris: [{ id: 'more', uri: link, description: config.brandName }] } : undefined;
  const expiry = order.expires ? { end: { date: new Date(order.expires).toISOString() } } : undefined;

  if (style === 'admission') {
    const hours = order.visitDate ? (input.relevance?.hours ?? []) : [];
    const opens = hours[0]?.opensAt;
    const closes = hours.at(-1)?.closesAt;
    return {
      kind: 'eventTicketObject',
      object: {
        id,
        classId: `${issuerId}.${ADMISSION_CLASS_SUFFIX}`,
        state,
        ...(holder && { ticketHolderName: holder }),
        ticketType: text(order.product),
        hexBackgroundColor: order.backgroundColor,
        ...(barcode && { barcode }),
        ...(opens && closes
          ? { validTimeInterval: { start: { date: opens.toISOString() }, end: { date: closes.toISOString() } } }
          : expiry && { validTimeInterval: expiry }),
        textModulesData: modules,
        ...(linksModuleData && { linksModuleData }),
      },
    };
  }
  if (style === 'storedValue') {
    const object: LoyaltyObject = {
      id,
      classId: `${issuerId}.${STORED_VALUE_CLASS_SUFFIX}`,
      state,
      ...(holder && { accountName: holder }),
      loyaltyPoints: { label: balance.label, balance: { double: order.credits } },
      ...(barcode && { barcode }),
      ...(expiry && { validTimeInterval: expiry }),
      textModulesData: modules.filter((m) => m.id !== 'balance'),
      ...(linksModuleData && { linksModuleData }),
    };
    return { kind: 'loyaltyObject', object };
  }
  return {
    kind: 'genericObject',
    object: {
      id,
      classId: `${issuerId}.${TICKET_CLASS_SUFFIX}`,
      genericType: 'GENERIC_TYPE_UNSPECIFIED',
      state,
      cardTitle: text(config.brandName),
      ...(holder ? { subheader: text('Ticketholder'), header: text(holder) } : { header: text(order.product) }),
      hexBackgroundColor: order.backgroundColor,
      textModulesData: modules,
      ...(barcode && { barcode }),
      ...(expiry && { validTimeInterval: expiry }),
      ...(linksModuleData && { linksModuleData }),
      ...(withPhoto &&
        order.photoUid && {
          imageModulesData: [
            {
              id: 'photo',
              mainImage: {
                sourceUri: { uri: `${config.publicUrl}/api/download/${encodeURIComponent(order.photoUid)}/photo.png` },
                contentDescription: text('Ticketholder photo'),
              },
            },
          ],
        }),
    },
  };
}

/** One class for every member card: the program. */
export const LOYALTY_CLASS_SUFFIX = 'brownie-points';

export function loyaltyClass(issuerId: string, config: GoogleWalletConfig): LoyaltyClass {
  return {
    id: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    programName: loyaltyPassTexts.programName,
    programLogo: programLogo(config),
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'ONE_USER_ALL_DEVICES',
  };
}

/** Google's `int` balance is 32 bits: a balance outside it goes as the same digits in `string`. */
const INT32_MAX = 2 ** 31 - 1;
const googleBalance = (points: number) => (Math.abs(points) <= INT32_MAX ? { int: points } : { string: String(points) });

/** The Google Wallet object of a member's card: the member, the balance, the tier and the points expiring within 30 days. */
export function toLoyaltyObject(member: LoyaltyMember, serialNumber: string, issuerId: string, timeZone: string): LoyaltyObject {
  const expiring = cardExpiring(member, timeZone);
  return {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    state: 'ACTIVE',
    accountId: member.memberNumber,
    accountName: memberName(member),
    loyaltyPoints: { label: loyaltyPassTexts.pointsLabel, balance: googleBalance(member.balance) },
    // The card token is what a till spends against; the member number is the text under it.
    barcode: { type: 'CODE_128', value: member.cardToken, alternateText: member.memberNumber },
    textModulesData: [
      { id: 'tier', header: loyaltyPassTexts.tierLabel, body: cardTier(member) },
      ...(expiring ? [{ id: 'expiring', header: loyaltyPassTexts.expiringLabel, body: expiring }] : []),
    ],
  };
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
