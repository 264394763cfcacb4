// The marketing consents' wording in every language, for the server: the pass page's catalogue
// (<language>/pages/pass.ts, `consent`) is what the registration form shows, and a registration
// records the wording of the language it was given in (apps/api/src/guest/pass/consent-wording.ts).
import type { Language } from './languages.ts';
import en from './en/pages/pass.ts';
import es from './es/pages/pass.ts';

export type ConsentTexts = { readonly [K in keyof typeof en.consent]: string };

export const CONSENT_TEXTS: Record<Language, ConsentTexts> = { en: en.consent, es: es.consent };
