// The guest pages' catalogue of every language (en/pages.ts first), one chunk per language and
// area: a page downloads its guest's language only, and of it the areas its route shows
// (apps/web/src/lib/language.tsx; the build names each chunk texts-<language>-<area>).
import type { Language } from './languages.ts';
import type en from './en/pages.ts';

/** The English texts' own types: tsc checks each page's keys and parameters against them. */
export type PageTexts = typeof en;
/** An area of the catalogue: one file of en/pages/ (common, ticket, storedValue...). */
export type PageArea = keyof PageTexts;

/** The areas every guest page shows: the frame (common) and the words of any error code (errors). */
export const BASE_AREAS = ['common', 'errors'] as const satisfies readonly PageArea[];

/** Each area of a language, loaded on its own: one dynamic import, so one chunk, per file. */
export type AreaLoaders = { [A in PageArea]: () => Promise<PageTexts[A]> };

// Each import is written out (not built from a template) so the bundler sees every file as a
// chunk of its own. Another language has the English keys with texts of its own (its files'
// `satisfies`); i18n.test.ts checks that each has the same parameters.
export const PAGE_TEXTS: Record<Language, AreaLoaders> = {
  en: {
    common: async () => (await import('./en/pages/common.ts')).default,
    errors: async () => (await import('./en/pages/errors.ts')).default,
    ticket: async () => (await import('./en/pages/ticket.ts')).default,
    pass: async () => (await import('./en/pages/pass.ts')).default,
    wallet: async () => (await import('./en/pages/wallet.ts')).default,
    share: async () => (await import('./en/pages/share.ts')).default,
    photo: async () => (await import('./en/pages/photo.ts')).default,
    wristband: async () => (await import('./en/pages/wristband.ts')).default,
    storedValue: async () => (await import('./en/pages/stored-value.ts')).default,
    privacy: async () => (await import('./en/pages/privacy.ts')).default,
    loyalty: async () => (await import('./en/pages/loyalty.ts')).default,
    statement: async () => (await import('./en/pages/statement.ts')).default,
  },
  es: {
    common: async () => (await import('./es/pages/common.ts')).default as unknown as PageTexts['common'],
    errors: async () => (await import('./es/pages/errors.ts')).default as unknown as PageTexts['errors'],
    ticket: async () => (await import('./es/pages/ticket.ts')).default as unknown as PageTexts['ticket'],
    pass: async () => (await import('./es/pages/pass.ts')).default as unknown as PageTexts['pass'],
    wallet: async () => (await import('./es/pages/wallet.ts')).default as unknown as PageTexts['wallet'],
    share: async () => (await import('./es/pages/share.ts')).default as unknown as PageTexts['share'],
    photo: async () => (await import('./es/pages/photo.ts')).default as unknown as PageTexts['photo'],
    wristband: async () => (await import('./es/pages/wristband.ts')).default as unknown as PageTexts['wristband'],
    storedValue: async () => (await import('./es/pages/stored-value.ts')).default as unknown as PageTexts['storedValue'],
    privacy: async () => (await import('./es/pages/privacy.ts')).default as unknown as PageTexts['privacy'],
    loyalty: async () => (await import('./es/pages/loyalty.ts')).default as unknown as PageTexts['loyalty'],
    statement: async () => (await import('./es/pages/statement.ts')).default as unknown as PageTexts['statement'],
  },
};

/** Every area of a language, for the catalogue's test. */
export async function allPageTexts(language: Language): Promise<PageTexts> {
  const loaders = PAGE_TEXTS[language];
  const areas = Object.keys(loaders) as PageArea[];
  const texts = await Promise.all(areas.map((area) => loaders[area]()));
  return Object.fromEntries(areas.map((area, index) => [area, texts[index]])) as PageTexts;
}
