// The guest languages (docs/i18n.md). Each catalogue of guest-facing words (mails.ts, ...) has a
// file per language in a folder named by its tag (en/, es/): English first, the others with the
// same keys and parameters (i18n.test.ts). A third language is a folder of catalogue files and
// its entry in LANGUAGES and in each catalogue's list.
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The locale each language's numbers and dates are written in: the park's guests' (Spanish as written in the United States: 15,000 and $12.50, the park's dollars). */
export const FORMATTING_LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-US' };

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** Another language's catalogue: the English one's keys, each with a text of its own. */
export type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
