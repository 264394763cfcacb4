// The words of the guests' mails, from the catalogue (@boardwalk/contract/i18n/mails, one file
// per language) through use-intl's translator: ICU messages filled with their parameters, dates
// in the park's time zone. Each mail's builder stays in its feature; only its words are here.
import { createTranslator } from 'use-intl/core';
import { DEFAULT_LANGUAGE, type Language } from '@boardwalk/contract/i18n/languages';
import { MAIL_TEXTS } from '@boardwalk/contract/i18n/mails';

/**
 * The mail texts of a language; a mail that names a date gives the park's time zone. Every mail
 * is in English until the guest's language is stored with what they asked for (issue 49).
 */
export const mailTexts = (language: Language = DEFAULT_LANGUAGE, parkTimezone?: string) =>
  createTranslator({ locale: language, messages: MAIL_TEXTS[language], ...(parkTimezone && { timeZone: parkTimezone }) });

export type MailTexts = ReturnType<typeof mailTexts>;
