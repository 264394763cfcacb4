// The guest pages' first screens, prerendered at build time (apps/web/src/prerender.tsx) into
// the files named here, and sent by the server (apps/api/src/platform/web.plugin.ts) for the
// paths that show them, so a phone paints the page's frame before its JavaScript has run.
// The app then hydrates that markup (apps/web/src/main.tsx). One table for both sides. Each
// shell is written once per guest language (shellFile); the server sends the guest's. Each
// names the catalogue's areas its page shows besides common and errors (i18n/pages.ts): the
// shell preloads them, the app loads them before its first render (apps/web/src/main.tsx), and
// the router's route for that page asks for the same ones (apps/web/src/app/router.tsx).
import { DEFAULT_LANGUAGE, type Language } from './i18n/languages.ts';
import type { PageArea } from './i18n/pages.ts';
import { BARCODE_PATTERN, HASH_URL_MIN_SEGMENT, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID } from './pass-address.ts';

/** The pass page's areas: the card, registration, wallet buttons, shares and photo steps it shows (the entry chunk's page). */
const PASS_PAGE_AREAS = ['ticket', 'pass', 'wallet', 'share', 'photo'] as const satisfies readonly PageArea[];

export const GUEST_SHELLS = {
  /** The login form (the bare pass page). */
  login: { file: 'index.html', renderAt: '/', areas: PASS_PAGE_AREAS },
  /** The pass page's frame while the pass loads: header, "Finding your pass…", footer. */
  pass: { file: 'shells/pass.html', renderAt: '/10000000/10000000', areas: PASS_PAGE_AREAS },
  /** The stored-value page's frame while the card loads. */
  storedValue: { file: 'shells/stored-value.html', renderAt: '/stored-value/shell', areas: ['ticket', 'storedValue'] },
  /** The loyalty home's email form (no member on a first visit). */
  loyalty: { file: 'shells/loyalty.html', renderAt: '/loyalty/', areas: ['loyalty'] },
  /** Every other page: the empty frame, rendered by the app alone; its route loads its own areas. */
  app: { file: 'shells/app.html', renderAt: null, areas: [] },
} as const satisfies Record<string, { file: string; renderAt: string | null; areas: readonly PageArea[] }>;

export type GuestShell = keyof typeof GUEST_SHELLS;

/** A shell's file in a language: English's as named above, another's in shells/<language>/ (shells/es/pass.html). */
export function shellFile(shell: GuestShell, language: Language): string {
  const { file } = GUEST_SHELLS[shell];
  return language === DEFAULT_LANGUAGE ? file : `shells/${language}/${file.slice(file.lastIndexOf('/') + 1)}`;
}

/** The shell of a page's path (no query): mirrors apps/web/src/app/router.tsx for the four prerendered pages. */
export function guestShellFor(path: string): GuestShell {
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return 'login';
  const [first = '', second = ''] = segments;
  if (first === 'loyalty' && segments.length === 1) return 'loyalty';
  if (first === 'stored-value' && segments.length === 2) return 'storedValue';
  if (segments.length === 1 && first.length > HASH_URL_MIN_SEGMENT) return 'pass';
  const orderId = ORDER_ID_PATTERN.test(first) || first === TEST_PASS_ORDER_ID;
  if ((segments.length === 2 || segments.length === 3) && orderId && BARCODE_PATTERN.test(second)) return 'pass';
  return 'app';
}
