// The guest-facing texts staff write (docs/i18n.md "The park's own texts"): each in English,
// in its column, and optionally in every other language, in a column of its own named by the
// language (`instructions`, `instructionsEs`). A guest reading a language without its text
// reads the English one.
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

/** Every language but English: the ones a staff text may be translated into. */
export const TRANSLATED_LANGUAGES = LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE);

/** What the back office calls each language. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Spanish' };

/** The name of a text's column (or field) in a language: `instructions`, `instructionsEs`. */
export const translatedName = (name: string, language: Language): string =>
  language === DEFAULT_LANGUAGE ? name : `${name}${language[0]!.toUpperCase()}${language.slice(1)}`;

/** A staff text as written in a language, without falling back (null: not written in it). */
export function ownText(row: object, column: string, language: Language): string | null {
  const text = (row as Record<string, unknown>)[translatedName(column, language)];
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}

/** A staff text in a language: its own when staff wrote one, else the English (null: none). */
export const textIn = (row: object, column: string, language: Language): string | null =>
  ownText(row, column, language) ?? ownText(row, column, DEFAULT_LANGUAGE);

/** A staff text in every language (each falling back to English), or null when there is no English one. */
export function textsIn(row: object, column: string): Record<Language, string> | null {
  if (textIn(row, column, DEFAULT_LANGUAGE) === null) return null;
  return Object.fromEntries(LANGUAGES.map((language) => [language, textIn(row, column, language)!])) as Record<Language, string>;
}
