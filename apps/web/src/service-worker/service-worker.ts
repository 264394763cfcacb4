// The guest pages' service worker (built by vite-plugin-pwa from this file, Workbox bundled in:
// nothing is loaded from elsewhere). It keeps the guest pages' frame and the files they need so a
// pass shown once opens at the gate with no network; the pass itself comes from the device copy
// the page kept (apps/web/src/lib/device-copy.ts), never from this worker.
//
// - Files: the build's list (self.__WB_MANIFEST: the guest entry and what it loads, the barcode
//   graphic, the stored-value page, the stylesheet, the prerendered pages, the icons) is
//   precached and served from the cache; every other request goes to the network untouched.
// - Pages: a guest page is asked of the network first (the newest build shows at once); with no
//   answer (offline, or none within NAVIGATION_TIMEOUT_MS) its prerendered frame comes from the
//   precache (the same table the server reads, @boardwalk/contract/guest-shells), in the guest's
//   language as the server picks it: the link's, the device's stored choice, the phone's.
// - Never handled: the staff pages (/login, /admin), the API and the server's own pages
//   (STAFF_AND_SERVER_PATHS), and every request a staff page makes: they go to the network as
//   if there were no worker, and nothing of them is kept.
// - Updates: a new build's worker installs beside the running one and takes over only once no
//   page of the old one is open (no skipWaiting), so an open page never loses the files it was
//   built with; the old precache is then removed.
import { guestShellFor, shellFile } from '@boardwalk/contract/guest-shells';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@boardwalk/contract/i18n/languages';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

/** Paths the worker leaves to the network, page or not: the back office, the API, the server's pages. */
const STAFF_AND_SERVER_PATHS = /^\/(login|admin|api|app|docs|healthz|readyz|metrics)(\/|$)/i;

/** How long a page waits for the network before its saved frame shows (a gate's weak signal). */
const NAVIGATION_TIMEOUT_MS = 4000;

/**
 * The pages opened at a staff or server path (their client ids, noted as they are asked for): their
 * requests are left to the network too. Kept in memory: a worker that stopped and started again
 * while a staff page was open forgets it, and that page's later requests for the app's own files
 * may then come from the precache (the same files), never a staff answer. (A worker lives
 * minutes: the set stays small.)
 */
const staffPages = new Set<string>();
// Added before Workbox's own listener (precacheAndRoute adds it), so it runs first.
self.addEventListener('fetch', (event) => {
  if (event.request.mode === 'navigate' && STAFF_AND_SERVER_PATHS.test(new URL(event.request.url).pathname)) {
    if (event.resultingClientId) staffPages.add(event.resultingClientId);
    event.stopImmediatePropagation();
  } else if (staffPages.has(event.clientId)) {
    event.stopImmediatePropagation();
  }
});
cleanupOutdatedCaches();
// A directory ('/') or a path without .html is a page, answered below: not mapped to a cached file.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });

/** The cookie store (Chromium, Safari 18.4, Firefox 140), where the worker reads the guest's stored language choice. */
type CookieStore = { get(name: string): Promise<{ value: string } | null> };

/** A page's language offline, as the server picks it (apps/api/src/platform/guest-language.ts pageLanguage). */
async function pageLanguage(url: URL): Promise<Language> {
  const fromLink = url.searchParams.get('lang');
  if (isLanguage(fromLink)) return fromLink;
  const stored = await (self as unknown as { cookieStore?: CookieStore }).cookieStore?.get('lang').catch(() => null);
  if (isLanguage(stored?.value)) return stored.value;
  return navigator.languages.map((tag) => tag.split('-')[0]?.toLowerCase()).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/** The network's answer, or the path's prerendered frame from the precache when it does not come. */
async function guestPage({ request, url }: { request: Request; url: URL }): Promise<Response> {
  const shell = async () => matchPrecache(`/${shellFile(guestShellFor(url.pathname), await pageLanguage(url))}`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, NAVIGATION_TIMEOUT_MS)));
  try {
    const answer = await Promise.race([fetch(request), timeout]);
    if (answer) return answer;
  } catch {
    // No network: the saved frame below.
  } finally {
    clearTimeout(timer);
  }
  return (await shell()) ?? Response.error();
}

registerRoute(new NavigationRoute(guestPage, { denylist: [STAFF_AND_SERVER_PATHS] }));
