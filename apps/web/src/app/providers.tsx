import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client.ts';
import { LanguageProvider, type LoadedLanguage } from '../lib/language.tsx';

export function Providers({ language, children }: { language: LoadedLanguage; children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageProvider initial={language}>{children}</LanguageProvider>
    </QueryClientProvider>
  );
}
