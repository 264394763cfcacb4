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

/** Each area of a language as a module of its own (its default export): one dynamic import, so one chunk, per file. */
export type AreaLoaders = { [A in PageArea]: () => Promise<{ default: PageTexts[A] }> };

// Each import is written out (not built from a template) so the bundler sees every file as a
// chunk of its own, and returns the module itself: every loader is in the entry chunk, and the
// shortest form keeps them small there.
const english: AreaLoaders = {
  common: () => import('./en/pages/common.ts'),
  errors: () => import('./en/pages/errors.ts'),
  ticket: () => import('./en/pages/ticket.ts'),
  pass: () => import('./en/pages/pass.ts'),
  wallet: () => import('./en/pages/wallet.ts'),
  share: () => import('./en/pages/share.ts'),
  photo: () => import('./en/pages/photo.ts'),
  wristband: () => import('./en/pages/wristband.ts'),
  storedValue: () => import('./en/pages/stored-value.ts'),
  privacy: () => import('./en/pages/privacy.ts'),
  loyalty: () => import('./en/pages/loyalty.ts'),
  statement: () => import('./en/pages/statement.ts'),
};
// Another language has the English keys with texts of its own (its files' `satisfies`; this
// list names every area), read with the English types; i18n.test.ts checks the parameters.
const spanish = {
  common: () => import('./es/pages/common.ts'),
  errors: () => import('./es/pages/errors.ts'),
  ticket: () => import('./es/pages/ticket.ts'),
  pass: () => import('./es/pages/pass.ts'),
  wallet: () => import('./es/pages/wallet.ts'),
  share: () => import('./es/pages/share.ts'),
  photo: () => import('./es/pages/photo.ts'),
  wristband: () => import('./es/pages/wristband.ts'),
  storedValue: () => import('./es/pages/stored-value.ts'),
  privacy: () => import('./es/pages/privacy.ts'),
  loyalty: () => import('./es/pages/loyalty.ts'),
  statement: () => import('./es/pages/statement.ts'),
} satisfies Record<PageArea, () => Promise<{ default: object }>>;

export const PAGE_TEXTS: Record<Language, AreaLoaders> = { en: english, es: spanish as unknown as AreaLoaders };

/** Every area of a language, for the catalogue's test. */
export async function allPageTexts(language: Language): Promise<PageTexts> {
  const areas = Object.keys(PAGE_TEXTS[language]) as PageArea[];
  const texts = await Promise.all(areas.map(async (area) => (await PAGE_TEXTS[language][area]()).default));
  return Object.fromEntries(areas.map((area, index) => [area, texts[index]])) as PageTexts;
}
