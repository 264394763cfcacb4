// What the pass lookup and the registration say when they fail, in the page's language: no
// answer in the area's words, an expired token and too many attempts in the errors catalogue's,
// any other failure "Unable to locate order" / "Unable to register" (errors.ORDER_NOT_FOUND,
// errors.REGISTER_FAILED).
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { useRequestErrors } from '../../lib/request-errors.ts';

function usePassCallError(
  networkError: 'ticket.login.networkError' | 'pass.registration.networkError',
  failure: 'ORDER_NOT_FOUND' | 'REGISTER_FAILED',
) {
  const describe = useRequestErrors();
  const t = useTranslations();
  return useCallback(
    (error: unknown) => describe(error, { networkError: t(networkError), failure: t(`errors.${failure}`) }),
    [describe, t, networkError, failure],
  );
}

/** The text for a failed lookup (the login form, a pass URL that could not be shown). */
export const useLoginErrorMessage = () => usePassCallError('ticket.login.networkError', 'ORDER_NOT_FOUND');

/** The text for a failed registration. */
export const useRegisterErrorMessage = () => usePassCallError('pass.registration.networkError', 'REGISTER_FAILED');
