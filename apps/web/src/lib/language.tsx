// The guest's language on the guest pages (docs/i18n.md): chosen by the link (`?lang=es`), else
// by the choice stored on the device (the `lang` cookie, which the server reads too), else by
// the language the page arrived in (`<html lang>`: the server's pick from the browser's
// languages). The words come from the pages' catalogue (@boardwalk/contract/i18n/pages), one
// chunk per language; use-intl formats them (precompiled at build time: vite.config.ts).
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider } from 'use-intl';
import { DEFAULT_LANGUAGE, FORMATTING_LOCALES, isLanguage, type Language } from '@boardwalk/contract/i18n/languages';
import { PAGE_TEXTS, type PageTexts } from '@boardwalk/contract/i18n/pages';

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

/** The language the guest pages speak, and the call that changes it (the switch). */
interface LanguageChoice {
  language: Language;
  chooseLanguage: (language: Language) => Promise<void>;
}
const LanguageContext = createContext<LanguageChoice>({ language: DEFAULT_LANGUAGE, chooseLanguage: async () => undefined });
export const useLanguage = () => useContext(LanguageContext);

/** The catalogue of the page's language, ready before the first render (main.tsx, prerender.tsx). */
export interface LoadedLanguage {
  language: Language;
  messages: PageTexts;
}
export const loadLanguage = async (language: Language): Promise<LoadedLanguage> => ({ language, messages: await PAGE_TEXTS[language]() });

export function LanguageProvider({ initial, children }: { initial: LoadedLanguage; children: ReactNode }) {
  const [loaded, setLoaded] = useState(initial);
  const chooseLanguage = useCallback(async (language: Language) => {
    storeLanguage(language);
    const next = await loadLanguage(language);
    document.documentElement.lang = language;
    setLoaded(next);
  }, []);
  const choice = useMemo(() => ({ language: loaded.language, chooseLanguage }), [loaded.language, chooseLanguage]);
  return (
    <LanguageContext value={choice}>
      <IntlProvider locale={FORMATTING_LOCALES[loaded.language]} messages={loaded.messages} timeZone={TIME_ZONE}>
        {children}
      </IntlProvider>
    </LanguageContext>
  );
}
