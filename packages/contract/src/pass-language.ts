// The guest page's language switch (PUT /api/pass/language): the pass's credentials as the
// wallet calls send them (order id and barcode, a shared guest's share id; or a share link's
// hashUrl alone) and the language the guest chose. Their passes and mails follow it (docs/i18n.md).
import { z } from 'zod/mini';
import { LANGUAGES } from './i18n/languages.ts';
import { appleWalletRequest } from './wallet.ts';

const language = z.enum(LANGUAGES, { error: `Language must be one of: ${LANGUAGES.join(', ')}` });
const [byOrder, byLink] = appleWalletRequest.def.options;

/** A body that fits neither form is answered with the first problem of the form it comes closest to. */
const closest = (issue: { code?: string; errors?: { path: PropertyKey[]; message: string }[][] }) => {
  const nearest = issue.code === 'invalid_union' ? issue.errors?.reduce((a, b) => (b.length < a.length ? b : a)) : undefined;
  const first = nearest?.[0];
  return first && `${first.path.map(String).join('.') || 'body'}: ${first.message}`;
};

/** PUT /api/pass/language */
export const passLanguageRequest = z.union([z.extend(byOrder, { language }), z.extend(byLink, { language })], { error: closest });
export type PassLanguageRequest = z.infer<typeof passLanguageRequest>;

/** The language stored for the pass's guest: the registration's (own guest) or the share's (shared guest). */
export const passLanguageAnswer = z.object({ language: z.enum(LANGUAGES) });
export type PassLanguageAnswer = z.infer<typeof passLanguageAnswer>;
