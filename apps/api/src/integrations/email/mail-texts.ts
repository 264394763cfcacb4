// The words of the guests' mails, from the catalogue (@boardwalk/contract/i18n/mails, one file
// per language) through use-intl's translator: ICU messages filled with their parameters, dates
// in the park's time zone. Each mail's builder stays in its feature; only its words are here.
import { createTranslator } from 'use-intl/core';
import { DEFAULT_LANGUAGE, FORMATTING_LOCALES, isLanguage, type Language } from '@boardwalk/contract/i18n/languages';
import { MAIL_TEXTS } from '@boardwalk/contract/i18n/mails';

const translators = new Map<string, ReturnType<typeof translator>>();

const translator = (language: Language, timeZone: string | undefined) =>
  createTranslator({ locale: FORMATTING_LOCALES[language], messages: MAIL_TEXTS[language], ...(timeZone && { timeZone }) });

/**
 * A guest page's address as a mail gives it: with the guest's language (`?lang=es`, before any
 * #token), so the page opens in the language the mail is written in, whatever the phone's.
 */
export function linkIn(url: string, language?: string | null): string {
  const link = new URL(url);
  link.searchParams.set('lang', isLanguage(language) ? language : DEFAULT_LANGUAGE);
  return link.href;
}

/**
 * The mail texts of a guest's language (as stored: one Boardwalk does not have, or none, is
 * English); a mail that names a date gives the park's time zone. One translator per language
 * and zone: it keeps each message parsed (a run of expiry reminders writes thousands).
 */
export function mailTexts(language?: string | null, parkTimezone?: string) {
  const known = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const key = `${known} ${parkTimezone ?? ''}`;
  let texts = translators.get(key);
  if (!texts) translators.set(key, (texts = translator(known, parkTimezone)));
  return texts;
}
