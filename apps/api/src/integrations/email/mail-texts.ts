// The words of the guests' mails, from the catalogue (@boardwalk/contract/i18n/mails, one file
// per language) through use-intl's translator: ICU messages filled with their parameters, dates
// in the park's time zone. Each mail's builder stays in its feature; only its words are here.
import { MAIL_TEXTS } from '@boardwalk/contract/i18n/mails';
import { knownLanguage, translatorsOf } from '../../platform/translators.ts';

/**
 * A guest page's address as a mail gives it: with the guest's language (`?lang=es`, before any
 * #token), so the page opens in the language the mail is written in, whatever the phone's.
 */
export function linkIn(url: string, language?: string | null): string {
  const link = new URL(url);
  link.searchParams.set('lang', knownLanguage(language));
  return link.href;
}

/**
 * The mail texts of a guest's language (as stored: one Boardwalk does not have, or none, is
 * English); a mail that names a date gives the park's time zone.
 */
export const mailTexts = translatorsOf(MAIL_TEXTS);
