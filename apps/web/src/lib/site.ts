// Public settings every page needs (brand name, support email): fetcher, query options, hook.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { siteInfo, type SiteInfo } from '@boardwalk/contract/pass';
import { apiRequest } from './api-client.ts';

export const getSiteInfo = (signal?: AbortSignal): Promise<SiteInfo> =>
  apiRequest('/api/site/', { schema: siteInfo, ...(signal && { signal }) });

export const siteInfoQueryOptions = () =>
  queryOptions({ queryKey: ['site'], queryFn: ({ signal }) => getSiteInfo(signal), staleTime: Infinity, retry: 2 });

/** The site settings, or null while they load (or when they could not be loaded). */
export function useSiteInfo(): SiteInfo | null {
  return useQuery(siteInfoQueryOptions()).data ?? null;
}
