// The marketing consents' wording in a guest's language, filled with the brand and the short
// code: word for word what the registration form shows in that language (both fill the pass
// page's catalogue, @boardwalk/contract/i18n/consents), and what a registration records.
import { createTranslator } from 'use-intl/core';
import { CONSENT_TEXTS } from '@boardwalk/contract/i18n/consents';
import { FORMATTING_LOCALES, type Language } from '@boardwalk/contract/i18n/languages';
import { SMS_SHORT_CODE, type ConsentChannel } from '@boardwalk/contract/pass';

export type ConsentWording = Record<ConsentChannel, { label: string; disclosure: string | null }>;

/** Each consent's checkbox label and, for texts, the disclosure under it, in the language. */
export function consentWording(brand: string, language: Language): ConsentWording {
  const t = createTranslator({
    locale: FORMATTING_LOCALES[language],
    messages: { consent: CONSENT_TEXTS[language] },
    namespace: 'consent',
  });
  const values = { brand, shortCode: SMS_SHORT_CODE };
  return {
    email: { label: t('emailLabel', values), disclosure: null },
    sms: { label: t('smsLabel', values), disclosure: t('smsDisclosure', values) },
  };
}
