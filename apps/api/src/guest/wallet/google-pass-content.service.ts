// What a Google Wallet pass shows, in Google's terms: the classes (one for every ticket, one
// for every member card) and the objects. A park ticket, season pass or stored-value card is
// not tied to one event with a date and venue, so it is a Generic pass (Google's type for
// passes that fit no predefined vertical) rather than an Event ticket. A loyalty member's card
// is Google's Loyalty pass: the program, the member, the points balance and the tier; a removed
// member's card is inactive and shows nothing personal.
import type { PassOrder } from '@boardwalk/contract/pass';
import { balanceText, dateFormats, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';
import type {
  GenericClass,
  GenericObject,
  LocalizedString,
  LoyaltyClass,
  LoyaltyObject,
} from '../../integrations/google-wallet/google-wallet.ts';
import type { Config } from '../../platform/config.ts';
import type { PassRow } from '../ticket/ticket.repo.ts';
import type { LoyaltyMember } from '../../loyalty/loyalty.repo.ts';
import { cardExpiring, cardTier, loyaltyPassTexts, memberName } from '../../loyalty/loyalty-member.service.ts';

export type GoogleWalletConfig = Pick<Config, 'defaultPassColors' | 'brandName' | 'publicUrl' | 'parkTimezone'>;

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
  config: GoogleWalletConfig;
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

export function loyaltyClass(issuerId: string, config: GoogleWalletConfig): LoyaltyClass {
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
    barcode: { type: 'CODE_128', value: member.memberNumber, alternateText: member.memberNumber },
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
