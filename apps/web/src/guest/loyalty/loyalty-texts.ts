// The loyalty area's shared words (the catalogue's `loyalty` area) and how failures read.
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { refusalOf } from '@boardwalk/contract/errors';
import {
  CLAIM_REFUSALS,
  CODE_REFUSALS,
  REFERRAL_REFUSALS,
  type ClaimRefusal,
  type CodeRefusal,
  type ReferralRefusal,
} from '@boardwalk/contract/loyalty';
import { STATEMENT_REFUSALS, type StatementRefusal } from '@boardwalk/contract/loyalty-statement-messages';
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

/**
 * Why the server refused a code (400), a claim (400) or a statement link (401): the answer's
 * reason (one code, VALIDATION_FAILED or UNAUTHORIZED, covers them all), which the page words
 * from the catalogue; a claim too old names its days.
 */
export function serverReason(
  error: unknown,
):
  | { kind: 'code'; key: CodeRefusal }
  | { kind: 'statement'; key: StatementRefusal }
  | { kind: 'claim'; key: ClaimRefusal; days: number }
  | { kind: 'referral'; key: ReferralRefusal }
  | null {
  if (!failedWith(error, 'VALIDATION_FAILED', 'UNAUTHORIZED')) return null;
  const reason = error.body?.reason;
  const code = refusalOf(CODE_REFUSALS, reason);
  if (code) return { kind: 'code', key: code };
  const statement = refusalOf(STATEMENT_REFUSALS, reason);
  if (statement) return { kind: 'statement', key: statement };
  const referral = refusalOf(REFERRAL_REFUSALS, reason);
  if (referral) return { kind: 'referral', key: referral };
  const claim = refusalOf(CLAIM_REFUSALS, reason);
  return claim ? { kind: 'claim', key: claim, days: Number(error.body?.params?.days ?? 0) } : null;
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
    /** A referral link refused when joining (400): the reason, worded here; null for any other failure. */
    referral: (error: unknown) => {
      const reason = serverReason(error);
      return reason?.kind === 'referral' ? t(`referral.${reason.key}`) : null;
    },
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
