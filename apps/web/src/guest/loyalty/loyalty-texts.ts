// The loyalty area's shared words (the catalogue's `loyalty` area) and how failures read.
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { loyaltyEmailMessages } from '@boardwalk/contract/loyalty';
import { statementMessages } from '@boardwalk/contract/loyalty-statement-messages';
import { failedWith } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';
import { useSiteInfo } from '../../lib/site.ts';
import type { ScanTexts } from '../../loyalty/claim-form.tsx';
import type { ClaimKind } from './loyalty-api.ts';

/**
 * The three claim forms (tickets, food and beverage, hotel): the field each sends. Kept here,
 * not in the claim page, so the loyalty home names them without loading that page's chunk.
 */
export const CLAIM_FIELDS: Record<ClaimKind, 'orderId' | 'checkNumber' | 'reservationNumber'> = {
  tickets: 'orderId',
  purchase: 'checkNumber',
  hotels: 'reservationNumber',
};
export const CLAIM_KINDS = Object.keys(CLAIM_FIELDS) as ClaimKind[];

/** A claim form's words: its title, label, hint and (tickets, food and beverage) the scanner's. */
export function useClaimTexts(kind: ClaimKind): { title: string; label: string; hint: string; scan?: ScanTexts } {
  const t = useTranslations('loyalty');
  const texts = { title: t(`claims.${kind}.title`), label: t(`claims.${kind}.label`), hint: t(`claims.${kind}.hint`) };
  if (kind === 'hotels') return texts;
  const scan = { button: t('claim.scan.button'), hint: t('claim.scan.hint'), close: t('claim.scan.close') };
  return { ...texts, scan: { ...scan, title: t(`claims.${kind}.scan`) } };
}

type ClaimReason =
  | 'unknownAccount'
  | 'emailMismatch'
  | 'notPublic'
  | 'alreadyClaimedOnline'
  | 'notYours'
  | 'scanReceipt'
  | 'unknownOrder'
  | 'unknownCheck'
  | 'unknownReservation'
  | 'refunded'
  | 'cancelled'
  | 'tooOld'
  | 'claimed'
  | 'nothingToEarn';

/** The claim refusals' English (apps/api/src/loyalty/loyalty-claims.service.ts claimMessages), by their start. */
const CLAIM_REASONS: [string, ClaimReason][] = [
  ['We could not find that loyalty account.', 'unknownAccount'],
  ['That email does not match this loyalty account.', 'emailMismatch'],
  ['This account can no longer add purchases online.', 'notPublic'],
  ['This account has already added a purchase online.', 'alreadyClaimedOnline'],
  ['This purchase is not under your email address.', 'notYours'],
  ['Scan the barcode on your receipt.', 'scanReceipt'],
  ['We could not find that order.', 'unknownOrder'],
  ['We could not find that check.', 'unknownCheck'],
  ['We could not find that reservation.', 'unknownReservation'],
  ['This purchase was refunded', 'refunded'],
  ['This reservation was cancelled', 'cancelled'],
  ['This purchase is more than ', 'tooOld'],
  ['This purchase has already been claimed.', 'claimed'],
  ['This purchase has no amount that earns points.', 'nothingToEarn'],
];

const keyOf = <T extends Record<string, string>>(messages: T, message: string) =>
  (Object.keys(messages) as (keyof T & string)[]).find((key) => messages[key] === message);

/**
 * Why the server refused a code (400), a claim (400) or a statement link (401). The server tells
 * these reasons apart only in its English `message` (one code, VALIDATION_FAILED or
 * UNAUTHORIZED, covers them all), so this is the one place that recognizes them by that text;
 * the page words each from the catalogue. To go once the server sends a reason code.
 */
export function serverReason(
  error: unknown,
):
  | { kind: 'code'; key: keyof typeof loyaltyEmailMessages }
  | { kind: 'statement'; key: keyof typeof statementMessages }
  | { kind: 'claim'; key: ClaimReason; days: number }
  | null {
  if (!failedWith(error, 'VALIDATION_FAILED', 'UNAUTHORIZED')) return null;
  const message = error.body?.message ?? '';
  const code = keyOf(loyaltyEmailMessages, message);
  if (code) return { kind: 'code', key: code };
  const statement = keyOf(statementMessages, message);
  if (statement) return { kind: 'statement', key: statement };
  const claim = CLAIM_REASONS.find(([start]) => message.startsWith(start))?.[1];
  // tooOld names its number of days: "more than 90 days old".
  return claim ? { kind: 'claim', key: claim, days: Number(/(\d+) days/.exec(message)?.[1] ?? 0) } : null;
}

/** The loyalty pages' failures in the page's language. */
export function useLoyaltyErrors() {
  const t = useTranslations('loyalty');
  const describe = useRequestErrors();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  /** Code and create failures other than the ones the flow handles (a refused code, 409). */
  const member = useCallback(
    (error: unknown) => {
      const failure = t('failure', { supportEmail });
      return describe(error, { networkError: failure, failure });
    },
    [t, describe, supportEmail],
  );
  return {
    supportEmail,
    member,
    /** A code refused (400): the reason, worded here; anything else the support text. */
    code: (error: unknown) => {
      const reason = serverReason(error);
      return reason?.kind === 'code' ? t(`code.${reason.key}`) : member(error);
    },
    /** A claim's failure: the reason of a 400 (shown in red), else the support text. */
    claim: (error: unknown) => {
      if (!failedWith(error, 'VALIDATION_FAILED')) return t('failure', { supportEmail });
      const reason = serverReason(error);
      if (reason?.kind !== 'claim') return t('refused.other');
      if (reason.key === 'tooOld') return t('refused.tooOld', { days: reason.days });
      if (reason.key === 'notPublic' || reason.key === 'alreadyClaimedOnline') return t(`refused.${reason.key}`, { supportEmail });
      return t(`refused.${reason.key}`);
    },
  };
}
