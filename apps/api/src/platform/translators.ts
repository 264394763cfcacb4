// A catalogue's translators (docs/i18n.md): use-intl's, one per language and time zone, kept so
// each message is parsed once (a run of expiry reminders writes thousands of mails, a republish
// thousands of passes). A language Boardwalk does not have, or none, is English.
import { createTranslator } from 'use-intl/core';
import { DEFAULT_LANGUAGE, FORMATTING_LOCALES, isLanguage, type Language } from '@boardwalk/contract/i18n/languages';

/** The language of a stored tag: one Boardwalk has, else English. */
export const knownLanguage = (tag: string | null | undefined): Language => (isLanguage(tag) ? tag : DEFAULT_LANGUAGE);

/**
 * The translators of a catalogue (each language's messages): `of(language, timeZone)` answers
 * the language's translator, dates in the time zone given (the park's) or the runtime's.
 */
export function translatorsOf<const Messages extends Record<string, unknown>>(catalogue: Record<Language, Messages>) {
  const make = (language: Language, timeZone: string | undefined) =>
    createTranslator({ locale: FORMATTING_LOCALES[language], messages: catalogue[language], ...(timeZone && { timeZone }) });
  const made = new Map<string, ReturnType<typeof make>>();
  return (language?: string | null, timeZone?: string) => {
    const known = knownLanguage(language);
    const key = `${known} ${timeZone ?? ''}`;
    let translator = made.get(key);
    if (!translator) made.set(key, (translator = make(known, timeZone)));
    return translator;
  };
}
