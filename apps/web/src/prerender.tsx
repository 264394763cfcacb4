// The build's server entry (vite.config.ts, environment `ssr`): renders the guest pages' first
// screens from the real components, as the app's first render in the browser shows them
// (nothing loaded yet: no site settings, no pass, no member), so main.tsx can hydrate them
// without a difference. React's prerender waits for the lazy route chunks, so the stored-value
// and loyalty pages render their own first screen, not the Suspense fallback.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { GUEST_SHELLS, guestShellFor } from '@boardwalk/contract/guest-shells';
import type { Language } from '@boardwalk/contract/i18n/languages';
import { loadedTexts, loadLanguage } from './lib/language.tsx';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';

/** The pages to prerender and the files they go to, for the build (vite.config.ts). */
export { GUEST_SHELLS, shellFile } from '@boardwalk/contract/guest-shells';
export { LANGUAGES } from '@boardwalk/contract/i18n/languages';
/** The areas every page loads, for the shells' preloads. */
export { BASE_AREAS } from '@boardwalk/contract/i18n/pages';

/** The page's title and description in a language, for its head. */
export async function headTexts(language: Language): Promise<{ title: string; description: string }> {
  await loadLanguage(language);
  const { common } = loadedTexts(language);
  if (!common) throw new Error(`no common texts in ${language}`);
  return { title: common.title, description: common.description };
}

/** The HTML of the app's root element at this URL, in a language, with its page's areas loaded as main.tsx loads them. */
export async function renderRoot(url: string, language: Language): Promise<string> {
  const loaded = await loadLanguage(language, GUEST_SHELLS[guestShellFor(url)].areas);
  const { prelude } = await prerender(
    <StrictMode>
      <Providers language={loaded}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
