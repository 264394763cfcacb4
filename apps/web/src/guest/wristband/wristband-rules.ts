// What the wristband page shows: pure functions of the order object and of a failed activation.
import { useCallback } from 'react';
import { useFormatter, useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import {
  WRISTBAND_CODE_LENGTH,
  WRISTBAND_CODE_PATTERN,
  WRISTBAND_REFUSALS,
  validityPeriod,
  wristbandTexts,
} from '@boardwalk/contract/wristband';
import { failedWith } from '../../lib/api-client.ts';

/** What the page offers for this ticket instead of (or with) the code field. */
export type WristbandState = 'redeemed' | 'not-wristband' | 'active' | 'ready';

export function wristbandState(order: PassOrder): WristbandState {
  if (order.isRedeemed) return 'redeemed';
  if (!order.isWristband) return 'not-wristband';
  if (order.isPassActivated) return 'active';
  return 'ready';
}

/** Activate is enabled only with exactly 16 characters. */
export const canActivate = (code: string) => code.length === WRISTBAND_CODE_LENGTH;

/** A code of 16 characters that cannot be a band's (letters and digits only). */
export const codeIsInvalid = (code: string) => !WRISTBAND_CODE_PATTERN.test(code);

/** How long a band can be used: through a day (the ticket's expiry, in the park's time zone), or with no end date. */
type Validity = { through: Date } | { forever: true };

/**
 * The success answer's validity ("Valid through 11/21/26", "Valid with no end date": text/plain,
 * as the contract gives it): the date is read from it, to be worded in the page's language; null
 * for a text of another form.
 */
export function readValidity(text: string): Validity | null {
  if (text === wristbandTexts.validity(validityPeriod(null))) return { forever: true };
  const date = /^Valid through (\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text);
  if (!date) return null;
  const [, month, day, year] = date.map(Number) as [number, number, number, number];
  return { through: new Date(Date.UTC(2000 + year, month - 1, day, 12)) };
}

/** A 403's params.validThrough (YYYY-MM-DD, or null for no end date) as a validity. */
const validityOf = (validThrough: string | number | null | undefined): Validity =>
  typeof validThrough === 'string' ? { through: new Date(`${validThrough}T12:00:00Z`) } : { forever: true };

/** The validity's words: "Valid through 11/21/26" ("Válida hasta el 21/11/26"), or the already-activated refusal. */
function useValidityWords() {
  const t = useTranslations('wristband');
  const format = useFormatter();
  return useCallback(
    (validity: Validity, refusal: boolean) => {
      if ('forever' in validity) return t(refusal ? 'alreadyActivatedForever' : 'validForever');
      const date = format.dateTime(validity.through, { timeZone: 'UTC', year: '2-digit', month: 'numeric', day: 'numeric' });
      return t(refusal ? 'alreadyActivatedThrough' : 'validThrough', { date });
    },
    [t, format],
  );
}

/** The success answer's validity in the page's language; the server's text as it came when it is none the page knows. */
export function useValidityText() {
  const words = useValidityWords();
  return useCallback(
    (answer: string) => {
      const validity = readValidity(answer);
      return validity ? words(validity, false) : answer;
    },
    [words],
  );
}

/**
 * An activation's failure: 401, 403 (the band deactivated, or already activated: for what
 * period it can be used), 408 and any other failure; no answer at all is the network text.
 */
export function useActivationError() {
  const t = useTranslations('wristband');
  const words = useValidityWords();
  return useCallback(
    (error: unknown): string => {
      if (failedWith(error, 'NETWORK_ERROR')) return t('networkError');
      if (failedWith(error, 'UNAUTHORIZED')) return t('unauthorized');
      if (failedWith(error, 'TOKEN_EXPIRED')) return t('expired');
      if (failedWith(error, 'FORBIDDEN')) {
        const reason = error.body?.reason;
        if (reason === WRISTBAND_REFUSALS.deactivated) return t('deactivated');
        if (reason === WRISTBAND_REFUSALS.alreadyActivated) return words(validityOf(error.body?.params?.validThrough), true);
      }
      return t('failed');
    },
    [t, words],
  );
}
