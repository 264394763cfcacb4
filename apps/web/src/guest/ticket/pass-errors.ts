// What the pass lookup and the registration say when they fail, in the page's language: no
// answer in the area's words, an expired token and too many attempts in the errors catalogue's,
// any other failure "Unable to locate order" / "Unable to register" (errors.ORDER_NOT_FOUND,
// errors.REGISTER_FAILED).
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { useRequestErrors } from '../../lib/request-errors.ts';

/** The text for a failed lookup (the login form, a pass URL that could not be shown). */
export function useLoginErrorMessage() {
  const describe = useRequestErrors();
  const t = useTranslations();
  return useCallback(
    (error: unknown) => describe(error, { networkError: t('ticket.login.networkError'), failure: t('errors.ORDER_NOT_FOUND') }),
    [describe, t],
  );
}

/** The text for a failed registration. */
export function useRegisterErrorMessage() {
  const describe = useRequestErrors();
  const t = useTranslations();
  return useCallback(
    (error: unknown) => describe(error, { networkError: t('pass.registration.networkError'), failure: t('errors.REGISTER_FAILED') }),
    [describe, t],
  );
}
