// The build's server entry (vite.config.ts, environment `ssr`): renders the guest pages' first
// screens from the real components, as the app's first render in the browser shows them
// (nothing loaded yet: no site settings, no pass, no member), so main.tsx can hydrate them
// without a difference. React's prerender waits for the lazy route chunks, so the stored-value
// and loyalty pages render their own first screen, not the Suspense fallback.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { Language } from '@boardwalk/contract/i18n/languages';
import { loadLanguage } from './lib/language.tsx';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';

/** The pages to prerender and the files they go to, for the build (vite.config.ts). */
export { GUEST_SHELLS, shellFile } from '@boardwalk/contract/guest-shells';
export { LANGUAGES } from '@boardwalk/contract/i18n/languages';

/** The page's title and description in a language, for its head. */
export async function headTexts(language: Language): Promise<{ title: string; description: string }> {
  const { common } = (await loadLanguage(language)).messages;
  return { title: common.title, description: common.description };
}

/** The HTML of the app's root element at this URL, in a language. */
export async function renderRoot(url: string, language: Language): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <Providers language={await loadLanguage(language)}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
