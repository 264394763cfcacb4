// What the wristband page shows: pure functions of the order object and of a failed activation.
import type { PassOrder } from '@boardwalk/contract/pass';
import { WRISTBAND_CODE_LENGTH, WRISTBAND_CODE_PATTERN, wristbandCodeMessage, wristbandTexts } from '@boardwalk/contract/wristband';
import { failedWith } from '../../lib/api-client.ts';

export { wristbandTexts };

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

/** A code of 16 characters that cannot be a band's (letters and digits only), or null. */
export const codeError = (code: string) => (WRISTBAND_CODE_PATTERN.test(code) ? null : wristbandCodeMessage);

/**
 * An activation's failure: 401, 403 (the server's text, which says for what period the band
 * can be used), 408 and any other failure; no answer at all is the network text.
 */
export function activationErrorMessage(error: unknown): string {
  if (failedWith(error, 'NETWORK_ERROR')) return wristbandTexts.networkError;
  if (failedWith(error, 'UNAUTHORIZED')) return wristbandTexts.unauthorized;
  if (failedWith(error, 'FORBIDDEN')) return error.body?.message ?? wristbandTexts.failed;
  if (failedWith(error, 'TOKEN_EXPIRED')) return wristbandTexts.expired;
  return wristbandTexts.failed;
}
