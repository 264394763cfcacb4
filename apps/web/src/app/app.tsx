import { BrowserRouter } from 'react-router';
import type { LoadedLanguage } from '../lib/language.tsx';
import { Providers } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App({ language }: { language: LoadedLanguage }) {
  return (
    <Providers language={language}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
