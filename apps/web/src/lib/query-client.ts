import { QueryClient } from '@tanstack/react-query';

/**
 * Guest lookups are throttled per failed attempt (10 per address, 5 per order id in 15
 * minutes), so nothing is retried or refetched behind the guest's back: one action, one
 * request.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}
