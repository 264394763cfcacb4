// The guest's language, for what Boardwalk writes them (mails; next the passes and vouchers):
// the one of the languages Boardwalk has that their call's Accept-Language prefers. A browser
// sends its own languages with every call; the guest pages will send the one they show
// (docs/i18n.md). Negotiator is the HTTP content negotiation Express and Fastify's own
// @fastify/accepts use: quality values, and a regional tag (es-MX) matching its language (es).
import Negotiator from 'negotiator';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';

/** The cookie in which the guest pages keep a guest's choice (apps/web/src/lib/language.tsx). */
export const LANGUAGE_COOKIE = 'lang';

export function guestLanguage(request: { headers: Record<string, string | string[] | undefined> }): Language {
  const preferred = new Negotiator(request).language([...LANGUAGES]);
  return isLanguage(preferred) ? preferred : DEFAULT_LANGUAGE;
}

/**
 * The language a guest page is sent in: the link's (`?lang=es`), else the guest's choice kept on
 * the device (the `lang` cookie), else the browser's languages.
 */
export function pageLanguage(request: {
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
  cookies: Record<string, string | undefined>;
}): Language {
  const fromLink = (request.query as { lang?: unknown } | undefined)?.lang;
  if (isLanguage(fromLink)) return fromLink;
  const stored = request.cookies[LANGUAGE_COOKIE];
  return isLanguage(stored) ? stored : guestLanguage(request);
}
