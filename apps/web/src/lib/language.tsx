// The guest's language on the guest pages (docs/i18n.md): chosen by the link (`?lang=es`), else
// by the choice stored on the device (the `lang` cookie, which the server reads too), else by
// the language the page arrived in (`<html lang>`: the server's pick from the browser's
// languages). The words come from the pages' catalogue (@boardwalk/contract/i18n/pages), one
// chunk per language and area: a page loads common and errors, and each route the areas it
// shows (app/router.tsx, AreaTexts); use-intl formats them (precompiled at build time: vite.config.ts).
import { createContext, use, useCallback, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { IntlErrorCode, IntlProvider, type IntlError } from 'use-intl';
import { DEFAULT_LANGUAGE, FORMATTING_LOCALES, isLanguage, LANGUAGES, type Language } from '@boardwalk/contract/i18n/languages';
import { BASE_AREAS, PAGE_TEXTS, type PageArea, type PageTexts } from '@boardwalk/contract/i18n/pages';

declare module 'use-intl' {
  interface AppConfig {
    Messages: PageTexts;
  }
}

/** The cookie that keeps a guest's choice on the device; the server picks the page's language by it (apps/api/src/platform/web.plugin.ts). */
export const LANGUAGE_COOKIE = 'lang';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
/** Dates and times on the guest pages are in the device's time zone: a guest at the park is in the park's. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The language a page opens in: the link's, the device's stored choice, the page's own. */
export function initialLanguage(): Language {
  const fromLink = new URLSearchParams(location.search).get('lang');
  if (isLanguage(fromLink)) {
    storeLanguage(fromLink);
    return fromLink;
  }
  const stored = new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];
  if (isLanguage(stored)) return stored;
  const page = document.documentElement.lang;
  return isLanguage(page) ? page : DEFAULT_LANGUAGE;
}

function storeLanguage(language: Language) {
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax${secure}`;
}

// ---- The areas loaded so far ------------------------------------------------------------
// One store for the page (and for the build's prerender, which renders every language in turn):
// each language's loaded areas as one object, replaced when an area arrives, so the provider
// (useSyncExternalStore) gives use-intl new messages exactly then.

const loaded = Object.fromEntries(LANGUAGES.map((language) => [language, {}])) as Record<Language, Partial<PageTexts>>;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
/** Every area the page has asked for in any language: a switch loads them all in the new one first. */
const wanted = new Set<PageArea>(BASE_AREAS);

/** A promise React's `use` reads at once when it is already settled (the fields React itself sets on a promise it has seen). */
type TrackedPromise = Promise<void> & { status?: 'fulfilled'; value?: undefined };
const fulfilled = (promise: Promise<void>): TrackedPromise => Object.assign(promise, { status: 'fulfilled' as const, value: undefined });

/** One download per language and area, shared by everyone who asks; a failed one (offline) may be asked again. */
const downloads = new Map<string, Promise<void>>();
function loadArea(language: Language, area: PageArea): Promise<void> {
  const key = `${language}:${area}`;
  let download = downloads.get(key);
  if (!download) {
    download = PAGE_TEXTS[language][area]().then((texts) => {
      loaded[language] = { ...loaded[language], [area]: texts };
      listeners.forEach((listener) => listener());
    });
    download.catch(() => downloads.delete(key));
    downloads.set(key, download);
  }
  return download;
}

/** The same promise for the same language and areas, as `use` wants across a suspended render and its retry. */
const requests = new Map<string, TrackedPromise>();
/**
 * Loads these areas of a language (besides common and errors); settled at once when they are
 * all there. Used by the routes (app/router.tsx) and before the first render (main.tsx, prerender.tsx).
 */
export function loadAreas(language: Language, areas: readonly PageArea[]): Promise<void> {
  const all = [...new Set([...BASE_AREAS, ...areas])].sort();
  all.forEach((area) => wanted.add(area));
  const key = `${language}:${all.join(',')}`;
  let request = requests.get(key);
  if (!request) {
    const missing = all.filter((area) => !loaded[language][area]);
    request =
      missing.length === 0
        ? fulfilled(Promise.resolve())
        : Promise.all(missing.map((area) => loadArea(language, area))).then(() => undefined);
    const pending = request;
    pending.then(
      () => fulfilled(pending),
      () => requests.delete(key),
    );
    requests.set(key, request);
  }
  return request;
}

/** The areas of a language loaded so far (the prerender's head texts read common from it). */
export const loadedTexts = (language: Language): Partial<PageTexts> => loaded[language];

/** The language the guest pages speak, and the call that changes it (the switch). */
interface LanguageChoice {
  language: Language;
  chooseLanguage: (language: Language) => Promise<void>;
}
const LanguageContext = createContext<LanguageChoice>({ language: DEFAULT_LANGUAGE, chooseLanguage: async () => undefined });
export const useLanguage = () => useContext(LanguageContext);

/**
 * Shows its children once these areas of the page's language are loaded (suspending meanwhile,
 * so the route's Suspense shows "Loading..."). A route's areas are loaded before the first render
 * when it is the page's first (main.tsx): then this renders at once, and hydration is untouched.
 */
export function AreaTexts({ areas, children }: { areas: readonly PageArea[]; children: ReactNode }) {
  use(loadAreas(useLanguage().language, areas));
  return children;
}

/**
 * A message missing from the loaded areas (a route that does not name an area it shows) must
 * not go unnoticed: the build's prerender and a development server stop on it; a built page logs
 * it (the browser tests fail on a console error) and shows its key, as use-intl does.
 */
function onIntlError(error: IntlError) {
  if (error.code === IntlErrorCode.MISSING_MESSAGE && (import.meta.env.DEV || import.meta.env.SSR)) throw error;
  console.error(error);
}

/** The language whose areas main.tsx and prerender.tsx loaded before the first render. */
export interface LoadedLanguage {
  language: Language;
}
/** Loads common, errors and these areas of a language, before the first render. */
export const loadLanguage = async (language: Language, areas: readonly PageArea[] = []): Promise<LoadedLanguage> => {
  await loadAreas(language, areas);
  return { language };
};

export function LanguageProvider({ initial, children }: { initial: LoadedLanguage; children: ReactNode }) {
  const [language, setLanguage] = useState(initial.language);
  const messages = useSyncExternalStore(
    subscribe,
    () => loaded[language],
    () => loaded[language],
  );
  const chooseLanguage = useCallback(async (next: Language) => {
    storeLanguage(next);
    // Every area this page has shown, in the new language, before the switch: no key shows
    // meanwhile. A route that asked for more during the download is loaded too.
    while ([...wanted].some((area) => !loaded[next][area])) await loadAreas(next, [...wanted]);
    document.documentElement.lang = next;
    setLanguage(next);
  }, []);
  const choice = useMemo(() => ({ language, chooseLanguage }), [language, chooseLanguage]);
  return (
    <LanguageContext value={choice}>
      {/* The areas loaded so far: what a route shows is among them (AreaTexts), a missing one is reported (onIntlError). */}
      <IntlProvider locale={FORMATTING_LOCALES[language]} messages={messages as PageTexts} timeZone={TIME_ZONE} onError={onIntlError}>
        {children}
      </IntlProvider>
    </LanguageContext>
  );
}
