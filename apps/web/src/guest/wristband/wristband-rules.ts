// What the wristband page shows: pure functions of the order object and of a failed activation.
import { useCallback } from 'react';
import { useFormatter, useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import { WRISTBAND_CODE_LENGTH, WRISTBAND_CODE_PATTERN, validityPeriod, wristbandTexts } from '@boardwalk/contract/wristband';
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
 * What the server's English says of a wristband, which its answers carry only as text: the
 * success answer ("Valid through 11/21/26", "Valid with no end date") and the two 403s (the
 * band was deactivated; it was already activated and can be used through a day). The one place
 * that reads the server's English (contract/wristband.ts wristbandTexts), until the server sends
 * a reason code and the date; null when the text is none of these.
 */
export function readWristbandText(text: string): { deactivated: true } | { validity: Validity } | null {
  if (text === wristbandTexts.deactivated) return { deactivated: true };
  const noEnd = validityPeriod(null);
  if (text === wristbandTexts.validity(noEnd) || text === wristbandTexts.alreadyActivated(noEnd)) return { validity: { forever: true } };
  const date = /through (\d{1,2})\/(\d{1,2})\/(\d{2})\b/.exec(text);
  if (!date) return null;
  const [, month, day, year] = date.map(Number) as [number, number, number, number];
  return { validity: { through: new Date(Date.UTC(2000 + year, month - 1, day, 12)) } };
}

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
      const read = readWristbandText(answer);
      return read && 'validity' in read ? words(read.validity, false) : answer;
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
        const read = readWristbandText(error.body?.message ?? '');
        if (read && 'deactivated' in read) return t('deactivated');
        if (read) return words(read.validity, true);
      }
      return t('failed');
    },
    [t, words],
  );
}
