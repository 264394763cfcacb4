// The guest pages' catalogue of every language (en/pages.ts first), each loaded on its own: a
// page downloads its guest's language only (apps/web/src/lib/language.tsx).
import type { Language } from './languages.ts';
import type en from './en/pages.ts';

/** The English texts' own types: tsc checks each page's keys and parameters against them. */
export type PageTexts = typeof en;

// Another language has the English keys with texts of its own (its files' `satisfies`);
// i18n.test.ts checks that each has the same parameters.
export const PAGE_TEXTS: Record<Language, () => Promise<PageTexts>> = {
  en: async () => (await import('./en/pages.ts')).default,
  es: async () => (await import('./es/pages.ts')).default as unknown as PageTexts,
};
