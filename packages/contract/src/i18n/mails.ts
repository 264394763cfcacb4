// The mails' catalogue in every language (en/mails.ts first): for the server, which fills them.
import type { Language } from './languages.ts';
import en from './en/mails.ts';
import es from './es/mails.ts';

/** The English texts' own types: tsc checks each mail's keys and parameters against them. */
export type MailTexts = typeof en;

// Another language has the English keys with texts of its own (its `satisfies`); i18n.test.ts
// checks that each has the same parameters.
export const MAIL_TEXTS: Record<Language, MailTexts> = { en, es: es as unknown as MailTexts };
