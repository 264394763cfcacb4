// What a loyalty member's Google Wallet card shows: the program's class and the member's object
// (the balance, the tier, the points expiring, the challenges), and what is left of it once the
// member is removed. The ticket passes' content is google-pass-content.service.ts.
import { DEFAULT_LANGUAGE } from '@boardwalk/contract/i18n/languages';
import { textsIn } from '@boardwalk/contract/i18n/staff-texts';
import type { LoyaltyClass, LoyaltyObject } from './google-wallet.ts';
import { knownLanguage } from '../../platform/translators.ts';
import { cardExpiring, memberName, type MemberCard } from '../../loyalty/loyalty-member.service.ts';
import { challengeText, type PassTranslator } from '../../guest/ticket/pass-texts.ts';
import {
  callbackOptions,
  inLanguages,
  localized,
  programLogo,
  smartTapClass,
  smartTapObject,
  textModule,
  type GoogleWalletConfig,
} from './google-pass-content.service.ts';

/** One class for every member card: the program. */
export const LOYALTY_CLASS_SUFFIX = 'brownie-points';

export function loyaltyClass(issuerId: string, config: GoogleWalletConfig): LoyaltyClass {
  return {
    id: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    issuerName: config.brandName,
    callbackOptions: callbackOptions(config),
    programName: 'Brownie Points',
    localizedProgramName: localized(DEFAULT_LANGUAGE, (t) => t('member.programName')),
    programLogo: programLogo(config),
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: `#${config.defaultPassColors.background}`,
    multipleDevicesAndHoldersAllowedStatus: 'ONE_USER_ALL_DEVICES',
    ...smartTapClass(config),
  };
}

/** Google's `int` balance is 32 bits: a balance outside it goes as the same digits in `string`. */
const INT32_MAX = 2 ** 31 - 1;
const googleBalance = (points: number) => (Math.abs(points) <= INT32_MAX ? { int: points } : { string: String(points) });

/**
 * The Google Wallet object of a member's card: the member, the balance, the tier, the points
 * expiring within 30 days and the challenges running (a module each, keyed by its campaign); a
 * completed challenge adds a message that notifies the holder (its id keeps it one message).
 */
export function toLoyaltyObject(member: MemberCard, serialNumber: string, issuerId: string, config: GoogleWalletConfig): LoyaltyObject {
  const timeZone = config.parkTimezone;
  const language = knownLanguage(member.language);
  const say = (write: (t: PassTranslator) => string) => localized(language, write, timeZone);
  const expiring = cardExpiring(member);
  const points = say((t) => t('member.points'));
  const completed = member.challenges.filter((challenge) => challenge.completed);
  return {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    state: 'ACTIVE',
    accountId: member.memberNumber,
    accountName: memberName(member),
    loyaltyPoints: { label: points.defaultValue.value, localizedLabel: points, balance: googleBalance(member.balance) },
    // The card token is what a till spends against; the member number is the text under it.
    barcode: { type: 'CODE_128', value: member.cardToken, alternateText: member.memberNumber },
    ...smartTapObject(config, member.cardToken),
    textModulesData: [
      textModule(
        'tier',
        say((t) => t('member.tier')),
        member.tierNames ? inLanguages(language, member.tierNames) : say((t) => t('member.noTier')),
      ),
      ...(expiring
        ? [
            textModule(
              'expiring',
              say((t) => t('member.expiringLabel')),
              say((t) => t('member.expiring', expiring)),
            ),
          ]
        : []),
      ...member.challenges.map((challenge) =>
        textModule(
          `challenge-${challenge.campaignId}`,
          inLanguages(language, textsIn(challenge.names, 'name')!),
          say((t) => challengeText(challenge, t)),
        ),
      ),
    ],
    ...(completed.length > 0 && {
      messages: completed.map((challenge) => {
        const header = inLanguages(language, textsIn(challenge.names, 'name')!);
        const body = say((t) => t('member.challengeMessage', { points: challenge.bonusPoints }));
        return {
          id: `challenge-${challenge.campaignId}`,
          header: header.defaultValue.value,
          body: body.defaultValue.value,
          localizedHeader: header,
          localizedBody: body,
          messageType: 'TEXT_AND_NOTIFY' as const,
        };
      }),
    }),
  };
}

/**
 * The object of a removed member's card: inactive, and nothing personal left on it (no name,
 * number, balance or barcode, nor their language), only that the membership ended.
 */
export function voidedLoyaltyObject(serialNumber: string, issuerId: string): LoyaltyObject {
  const say = (write: (t: PassTranslator) => string) => localized(DEFAULT_LANGUAGE, write);
  return {
    id: `${issuerId}.${serialNumber}`,
    classId: `${issuerId}.${LOYALTY_CLASS_SUFFIX}`,
    state: 'INACTIVE',
    textModulesData: [
      textModule(
        'status',
        say((t) => t('member.programName')),
        say((t) => t('member.membershipEnded')),
      ),
    ],
  };
}
