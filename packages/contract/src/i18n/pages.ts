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

/** A catalogue file's texts: its one default export. */
const texts = <T>(file: { default: T }) => file.default;
/** Another language's texts, typed as the English ones (whose types are their literal words). */
const translated = <A extends PageArea>(file: { default: unknown }) => file.default as PageTexts[A];

// Each import is written out (not built from a template) so the bundler sees every file as a
// chunk of its own. Another language has the English keys with texts of its own (its files'
// `satisfies`); i18n.test.ts checks that each has the same parameters.
export const PAGE_TEXTS: Record<Language, AreaLoaders> = {
  en: {
    common: () => import('./en/pages/common.ts').then(texts),
    errors: () => import('./en/pages/errors.ts').then(texts),
    ticket: () => import('./en/pages/ticket.ts').then(texts),
    pass: () => import('./en/pages/pass.ts').then(texts),
    wallet: () => import('./en/pages/wallet.ts').then(texts),
    share: () => import('./en/pages/share.ts').then(texts),
    photo: () => import('./en/pages/photo.ts').then(texts),
    wristband: () => import('./en/pages/wristband.ts').then(texts),
    storedValue: () => import('./en/pages/stored-value.ts').then(texts),
    privacy: () => import('./en/pages/privacy.ts').then(texts),
    loyalty: () => import('./en/pages/loyalty.ts').then(texts),
    statement: () => import('./en/pages/statement.ts').then(texts),
    visits: () => import('./en/pages/visits.ts').then(texts),
  },
  es: {
    common: () => import('./es/pages/common.ts').then(translated<'common'>),
    errors: () => import('./es/pages/errors.ts').then(translated<'errors'>),
    ticket: () => import('./es/pages/ticket.ts').then(translated<'ticket'>),
    pass: () => import('./es/pages/pass.ts').then(translated<'pass'>),
    wallet: () => import('./es/pages/wallet.ts').then(translated<'wallet'>),
    share: () => import('./es/pages/share.ts').then(translated<'share'>),
    photo: () => import('./es/pages/photo.ts').then(translated<'photo'>),
    wristband: () => import('./es/pages/wristband.ts').then(translated<'wristband'>),
    storedValue: () => import('./es/pages/stored-value.ts').then(translated<'storedValue'>),
    privacy: () => import('./es/pages/privacy.ts').then(translated<'privacy'>),
    loyalty: () => import('./es/pages/loyalty.ts').then(translated<'loyalty'>),
    statement: () => import('./es/pages/statement.ts').then(translated<'statement'>),
    visits: () => import('./es/pages/visits.ts').then(translated<'visits'>),
  },
};

/** Every area of a language, for the catalogue's test. */
export async function allPageTexts(language: Language): Promise<PageTexts> {
  const loaders = PAGE_TEXTS[language];
  const areas = Object.keys(loaders) as PageArea[];
  const texts = await Promise.all(areas.map((area) => loaders[area]()));
  return Object.fromEntries(areas.map((area, index) => [area, texts[index]])) as PageTexts;
}
