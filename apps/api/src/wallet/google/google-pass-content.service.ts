// What a Google Wallet pass shows, in Google's terms: the classes (one per kind of pass) and
// the objects. A ticket's object has the class that fits it (pass-style.service.ts): a dated
// admission is an Event ticket, a Stored Value Card a Loyalty card with its credits, a season
// pass and other tickets a Generic pass (Google's type for passes that fit no vertical). The
// classes carry the park's locations. A loyalty member's card is Google's Loyalty pass: the
// program, the member and the points balance; a removed member's card is inactive and shows
// nothing personal.
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';
import type { PassOrder } from '@boardwalk/contract/pass';
import { purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type {
  EventTicketClass,
  GenericClass,
  LocalizedString,
  LoyaltyObject,
  LoyaltyClass,
  MerchantLocation,
  Message,
  ObjectState,
  SaveToWalletPayload,
  TextModule,
  WalletClass,
  WalletObject,
} from './google-wallet.ts';
import type { PassTexts } from '@boardwalk/contract/i18n/passes';
import { ownText, textIn, textsIn } from '@boardwalk/contract/i18n/staff-texts';
import type { Config } from '../../platform/config.ts';
import type { PassRow } from '../../guest/ticket/ticket.service.ts';
import { balanceOf, fixedText, inEveryLanguage, voidReasonText, type PassTranslator } from '../../guest/ticket/pass-texts.ts';
import type { ParkLocation, ParkNotice } from '../park-settings.repo.ts';
import { passStyleOf, type PassStyle, type Relevance, type VoidReason } from '../pass-style.service.ts';

export type GoogleWalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone'> & {
  google: Pick<Config['google'], 'smartTap'>;
};

/** A class's Smart Tap fields when the operator configured Smart Tap (none otherwise). */
export const smartTapClass = (config: GoogleWalletConfig) =>
  config.google.smartTap ? { enableSmartTap: true, redemptionIssuers: config.google.smartTap.redemptionIssuers } : {};

/** An object's Smart Tap value, the same credential as its barcode, when Smart Tap is configured and the pass may tap (valid, not excluded from NFC). */
export const smartTapObject = (config: GoogleWalletConfig, credential: string, contactless = true) =>
  config.google.smartTap && contactless ? { smartTapRedemptionValue: credential } : {};

/** The class of season passes and undated tickets. */
export const TICKET_CLASS_SUFFIX = 'park-ticket';
/** The class of dated admissions. */
export const ADMISSION_CLASS_SUFFIX = 'park-admission';
/** The class of Stored Value Cards. */
export const STORED_VALUE_CLASS_SUFFIX = 'stored-value';

/** Data (a name, a product name staff typed): one value, as it is. */
const text = (value: string): LocalizedString => ({ defaultValue: { language: 'en-US', value } });

/** The tag Google gets for each language: English's as before; Spanish matching any Spanish phone. */
const WALLET_TAGS: Record<Language, string> = { en: 'en-US', es: 'es' };

/**
 * A text of the pass's own in the holder's language (a class's: English), with its translation
 * into every other language: Google shows the phone's language, else the default (docs/i18n.md).
 */
export const localized = (language: Language, write: (t: PassTranslator) => string, timeZone = 'UTC'): LocalizedString =>
  inLanguages(language, inEveryLanguage(timeZone, write));

/** A text in every language: the holder's as the default, the others as its translations. */
export function inLanguages(language: Language, all: Record<Language, string>): LocalizedString {
  return {
    defaultValue: { language: WALLET_TAGS[language], value: all[language] },
    translatedValues: LANGUAGES.filter((other) => other !== language).map((other) => ({ language: WALLET_TAGS[other], value: all[other] })),
  };
}

/** A label by its key, in the holder's language with its translations. */
const localizedLabel = (language: Language, key: keyof PassTexts['label']): LocalizedString =>
  inLanguages(language, fixedText(`label.${key}`));

/**
 * The instructions in every language: in each, staff's Google instructions in it, else their
 * general ones in it, else the English Google ones, else the English general ones (null: none).
 */
function googleInstructions(customization: object): Record<Language, string> | null {
  const english = textIn(customization, 'googleInstructions', DEFAULT_LANGUAGE) ?? textIn(customization, 'instructions', DEFAULT_LANGUAGE);
  if (!english) return null;
  const inLanguage = (language: Language) =>
    ownText(customization, 'googleInstructions', language) ?? ownText(customization, 'instructions', language) ?? english;
  return Object.fromEntries(LANGUAGES.map((language) => [language, inLanguage(language)])) as Record<Language, string>;
}

/** A text module: its header in the holder's language with translations, its body too unless it is data (a string). */
export function textModule(id: string, header: LocalizedString, body: LocalizedString | string): TextModule {
  return typeof body === 'string'
    ? { id, header: header.defaultValue.value, body, localizedHeader: header }
    : { id, header: header.defaultValue.value, body: body.defaultValue.value, localizedHeader: header, localizedBody: body };
}
const row = (start: string, end: string) => ({
  twoItems: {
    startItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${start}']` }] } },
    endItem: { firstValue: { fields: [{ fieldPath: `object.textModulesData['${end}']` }] } },
  },
});
const merchantLocations = (locations: ParkLocation[]): MerchantLocation[] =>
  locations.map(({ latitude, longitude }) => ({ latitude, longitude }));

/** What the ticket classes carry of the park's settings: the locations and the notices. */
export type ParkContent = { locations: ParkLocation[]; notices?: ParkNotice[] };
const NO_PARK: ParkContent = { locations: [] };

/** The park's notices as the class's messages: the header in every language, the notice as staff wrote it in each. */
const noticeMessages = (notices: ParkNotice[]): Message[] =>
  notices.map((notice, i) => {
    const header = inLanguages(DEFAULT_LANGUAGE, fixedText('label.notice'));
    const body = inLanguages(DEFAULT_LANGUAGE, textsIn(notice, 'text')!);
    return {
      id: `notice${i}`,
      header: header.defaultValue.value,
      body: body.defaultValue.value,
      localizedHeader: header,
      localizedBody: body,
      messageType: 'TEXT',
    };
  });

/** Where Google posts the save and delete callbacks of every class's objects (the classes' callbackOptions). */
export const GOOGLE_CALLBACKS_PATH = '/api/google-wallet/callbacks';
export const callbackOptions = (config: GoogleWalletConfig) => ({ url: `${config.publicUrl}${GOOGLE_CALLBACKS_PATH}` });

/** The program logo Google shows on a loyalty card (a PNG it fetches; Google takes no SVG). */
export const PROGRAM_LOGO_PATH = '/api/google-wallet/program-logo.png';
export const programLogo = (config: GoogleWalletConfig) => ({
  sourceUri: { uri: `${config.publicUrl}${PROGRAM_LOGO_PATH}` },
  contentDescription: text(config.brandName),
});

export function ticketClass(
  issuerId: string,
  config: GoogleWalletConfig,
  { locations, notices = [] }: ParkContent = NO_PARK,
): GenericClass {
  return {
    id: `${issuerId}.${TICKET_CLASS_SUFFIX}`,
    callbackOptions: callbackOptions(config),
    // A shared ticket (ticket shares) is saved by its guest and by the guests it is shared with.
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    classTemplateInfo: { cardTemplateOverride: { cardRowTemplateInfos: [row('product', 'balance'), row('order_date', 'expires')] } },
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
    ...(notices.length > 0 && { messages: noticeMessages(notices) }),
    ...smartTapClass(config),
  };
}

export function admissionClass(
  issuerId: string,
  config: GoogleWalletConfig,
  { locations, notices = [] }: ParkContent = NO_PARK,
): EventTicketClass {
  return {
    id: `${issuerId}.${ADMISSION_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    eventName: localized(DEFAULT_LANGUAGE, (t) => t('google.admission', { brand: config.brandName })),
    reviewStatus: 'UNDER_REVIEW',
    ...(locations[0] && { venue: { name: text(config.brandName), address: text(locations[0].name) } }),
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
    ...(notices.length > 0 && { messages: noticeMessages(notices) }),
    ...smartTapClass(config),
  };
}

export function storedValueClass(
  issuerId: string,
  config: GoogleWalletConfig,
  { locations, notices = [] }: ParkContent = NO_PARK,
): LoyaltyClass {
  return {
    id: `${issuerId}.${STORED_VALUE_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    programName: 'Stored Value Card',
    localizedProgramName: localized(DEFAULT_LANGUAGE, (t) => t('google.storedValueCard')),
    programLogo: programLogo(config),
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS',
    ...(locations.length > 0 && { merchantLocations: merchantLocations(locations) }),
    ...(notices.length > 0 && { messages: noticeMessages(notices) }),
    ...smartTapClass(config),
  };
}

/** The class of a ticket's pass style, as the REST collection it lives in. */
export function classOfStyle(style: PassStyle, issuerId: string, config: GoogleWalletConfig, park: ParkContent): WalletClass {
  if (style === 'admission') return { kind: 'eventTicketClass', class: admissionClass(issuerId, config, park) };
  if (style === 'storedValue') return { kind: 'loyaltyClass', class: storedValueClass(issuerId, config, park) };
  return { kind: 'genericClass', class: ticketClass(issuerId, config, park) };
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
export const classOfKind = (kind: WalletObject['kind'], issuerId: string, config: GoogleWalletConfig, park: ParkContent) =>
  classOfStyle(STYLE_OF_KIND[kind]!, issuerId, config, park);

/** Every ticket class (each created once, then updated when the park's locations change). */
export const ticketClasses = (issuerId: string, config: GoogleWalletConfig, park: ParkContent): WalletClass[] =>
  (['admission', 'storedValue', 'ticket'] as const).map((style) => classOfStyle(style, issuerId, config, park));

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
  /** False when an exclusion keeps the ticket off contactless readers (excludeNfc): no Smart Tap value. */
  contactless: boolean;
  /** Why the pass is void (voidReasonOf), null while valid. */
  voidReason: VoidReason | null;
  /** The visit day's hours of a dated admission (its valid time); a season pass's next reservation. */
  relevance?: Relevance;
  /** The kind of the object handed out (a Google object never changes kind); none: the kind that fits the ticket. */
  kind?: string | null;
  /** The holder's language (holderLanguage): the texts' default; the other languages are their translations. */
  language: Language;
}

/** The pass style an object of this kind shows. */
const STYLE_OF_KIND: Record<string, PassStyle> = { genericObject: 'ticket', eventTicketObject: 'admission', loyaltyObject: 'storedValue' };

/** The REST collection of a ticket's object in this style. */
export const objectKindOf = (style: PassStyle): WalletObject['kind'] =>
  style === 'admission' ? 'eventTicketObject' : style === 'storedValue' ? 'loyaltyObject' : 'genericObject';

/** The Google Wallet object of a ticket's pass, in the class that fits it: what the pass card shows, in Google's fields. */
export function toTicketObject(input: ObjectInput): WalletObject {
  const { order, customization, serialNumber, issuerId, config, withPhoto, voidReason, language } = input;
  const smartTap = smartTapObject(config, order.barcode, input.contactless && voidReason === null);
  const zone = config.parkTimezone;
  const label = (key: keyof PassTexts['label']) => localizedLabel(language, key);
  const date = (iso: string, timeZone = zone) => localized(language, (t) => t('value.date', { date: new Date(iso) }), timeZone);
  const holder = ticketholderName(order);
  const balance = {
    label: localized(language, (t) => balanceOf(order, t).label),
    value: localized(language, (t) => balanceOf(order, t).value),
  };
  const style = (input.kind && STYLE_OF_KIND[input.kind]) || passStyleOf(order);

  const modules: TextModule[] = [
    textModule(
      'product',
      label('product'),
      voidReason
        ? localized(language, (t) => t('value.voided', { product: order.product, reason: voidReasonText(voidReason, t) }))
        : order.product,
    ),
    textModule('balance', balance.label, balance.value),
  ];
  const next = input.relevance?.nextVisit;
  if (next) {
    const window = localized(language, (t) => t('value.visitWindow', { start: next.startsAt, end: next.endsAt }), zone);
    modules.push(textModule('next_visit', label('reservation'), window));
  }
  // The visit day is a calendar day: noon of it in UTC, shown as written.
  if (order.visitDate) modules.push(textModule('visit_date', label('visitDate'), date(`${order.visitDate}T12:00:00Z`, 'UTC')));
  if (order.orderDate) modules.push(textModule('order_date', label('orderDate'), date(order.orderDate)));
  if (order.expires) modules.push(textModule('expires', label('expires'), date(order.expires)));
  if (order.redeemed) {
    const redeemed = new Date(order.redeemed);
    modules.push(
      textModule(
        'redeemed',
        label('redeemed'),
        localized(language, (t) => t('value.dateTime', { date: redeemed }), zone),
      ),
    );
  }
  const purchaser = purchaserName(order);
  if (purchaser) modules.push(textModule('purchaser', label('purchaser'), purchaser));
  const instructions = customization && googleInstructions(customization);
  if (instructions) modules.push(textModule('instructions', label('instructions'), inLanguages(language, instructions)));

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
        ...smartTap,
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
      loyaltyPoints: { label: balance.label.defaultValue.value, localizedLabel: balance.label, balance: { double: order.credits } },
      ...(barcode && { barcode }),
      ...smartTap,
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
      ...(holder ? { subheader: label('ticketholder'), header: text(holder) } : { header: text(order.product) }),
      hexBackgroundColor: order.backgroundColor,
      textModulesData: modules,
      ...(barcode && { barcode }),
      ...smartTap,
      // Valid from the next reserved window on; its end stays the pass's expiry (ending with the
      // window, Google would show the pass expired after the visit).
      ...(next
        ? { validTimeInterval: { start: { date: next.startsAt.toISOString() }, ...expiry } }
        : expiry && { validTimeInterval: expiry }),
      ...(linksModuleData && { linksModuleData }),
      ...(withPhoto &&
        order.photoUid && {
          imageModulesData: [
            {
              id: 'photo',
              mainImage: {
                sourceUri: { uri: `${config.publicUrl}/api/download/${encodeURIComponent(order.photoUid)}/photo.png` },
                contentDescription: localized(language, (t) => t('google.photo')),
              },
            },
          ],
        }),
    },
  };
}
