// A failed call in the page's language: the errors catalogue (@boardwalk/contract/i18n/<language>/
// pages/errors.ts) words each error code a guest can meet; a page words its own calls' usual
// failures (no answer, and the one failure each call expects) in its own area.
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { describeRequestError } from './api-client.ts';

/**
 * describeRequestError in the page's language: `describe(error, { networkError, failure })` says
 * the call's own texts for no answer and for a failure, and the errors catalogue's for an expired
 * token and too many attempts. For any code's own words: `useTranslations('errors')(error.code)`.
 */
export function useRequestErrors() {
  const errors = useTranslations('errors');
  return useCallback(
    (error: unknown, texts: { networkError: string; failure: string }) => describeRequestError(error, texts, (code) => errors(code)),
    [errors],
  );
}
