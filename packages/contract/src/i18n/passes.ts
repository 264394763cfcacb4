// The passes' and voucher's catalogue in every language (en/passes.ts first): for the server,
// which writes the Apple pass's .lproj strings, the Google objects' translations and the voucher.
import type { Language } from './languages.ts';
import en from './en/passes.ts';
import es from './es/passes.ts';

/** The English texts' own types: tsc checks each call's keys and parameters against them. */
export type PassTexts = typeof en;

// Another language has the English keys with texts of its own (its `satisfies`); i18n.test.ts
// checks that each has the same parameters, and Apple's %@ places.
export const PASS_TEXTS: Record<Language, PassTexts> = { en, es: es as unknown as PassTexts };
