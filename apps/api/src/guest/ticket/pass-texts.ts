// The words of a guest's passes and voucher, from the catalogue (@boardwalk/contract/i18n/passes)
// through use-intl's translator, in the pass holder's language (as stored) or every language at
// once (Apple's .lproj strings, Google's translated values). The wallet, the voucher and the
// loyalty core's member card read them here.
import { LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';
import { PASS_TEXTS, type PassTexts } from '@boardwalk/contract/i18n/passes';
import type { StatementChallenge } from '@boardwalk/contract/loyalty-statement';
import type { PassOrder } from '@boardwalk/contract/pass';
import { isStoredValueCard } from '@boardwalk/contract/pass-display';
import { translatorsOf } from '../../platform/translators.ts';

/** The pass texts of a language (as stored: one Boardwalk does not have, or none, is English); dates in `timeZone`. */
export const passTexts = translatorsOf(PASS_TEXTS);
export type PassTranslator = ReturnType<typeof passTexts>;

/** A label, an Apple lock-screen message or a member card's word (no parameters), by its key. */
export type FixedTextKey =
  | `label.${keyof PassTexts['label']}`
  | `changed.${keyof PassTexts['changed']}`
  | `member.${Exclude<keyof PassTexts['member'], 'description' | 'expiring' | 'challengeProgress' | 'challengeDone' | 'challengeMessage'>}`;
const fixedTexts = new Map<FixedTextKey, Record<Language, string>>();
/** A text without parameters in every language, made once (a pass shows a dozen, and passes are made by the thousand). */
export function fixedText(key: FixedTextKey): Record<Language, string> {
  let texts = fixedTexts.get(key);
  if (!texts) fixedTexts.set(key, (texts = inEveryLanguage('UTC', (t) => t(key))));
  return texts;
}

/** One text in every language: `write` asks the translator of each (dates in `timeZone`). */
export function inEveryLanguage(timeZone: string, write: (t: PassTranslator) => string): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, write(passTexts(language, timeZone))])) as Record<Language, string>;
}

/** A ticket's balance in a language: its credits on a Stored Value Card, its cash in USD otherwise (0 when none). */
export function balanceOf(order: PassOrder, t: PassTranslator): { label: string; value: string } {
  return isStoredValueCard(order)
    ? { label: t('label.credits'), value: t('value.credits', { credits: order.credits }) }
    : { label: t('label.balance'), value: t('value.money', { amount: order.cash }) };
}

/** A member card's challenge line: the progress toward its goal, or what completing it earned. */
export function challengeText(
  challenge: Pick<StatementChallenge, 'goal' | 'goalCount' | 'progress' | 'completed' | 'bonusPoints'>,
  t: PassTranslator,
): string {
  return challenge.completed
    ? t('member.challengeDone', { points: challenge.bonusPoints })
    : t(`member.challengeProgress.${challenge.goal}`, { progress: challenge.progress, goalCount: challenge.goalCount });
}

const VOID_REASONS = {
  Refunded: 'refunded',
  Redeemed: 'redeemed',
  Expired: 'expired',
  'No Longer Valid': 'noLongerValid',
  'No Longer Shared': 'noLongerShared',
} as const;

/** Why a pass is void (a reason as pass-display and the wallet name it: 'Refunded', ...), in a language. */
export const voidReasonText = (reason: keyof typeof VOID_REASONS, t: PassTranslator) => t(`voidReason.${VOID_REASONS[reason]}`);
