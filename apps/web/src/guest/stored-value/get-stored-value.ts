// POST /api/stored-value/: the fetcher, its query and hook, side by side. A failed lookup
// counts against the guest's throttle, so it is never retried behind their back (query-client.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storedValueResponse, type StoredValueResponse } from '@boardwalk/contract/stored-value';
import { apiRequest } from '../../lib/api-client.ts';

export const getStoredValue = (barcodeHash: string, signal?: AbortSignal): Promise<StoredValueResponse> =>
  apiRequest('/api/stored-value/', { method: 'POST', body: { barcodeHash }, schema: storedValueResponse, ...(signal && { signal }) });

export const storedValueQueryOptions = (barcodeHash: string) =>
  queryOptions({ queryKey: ['stored-value', barcodeHash], queryFn: ({ signal }) => getStoredValue(barcodeHash, signal) });

export const useStoredValue = (barcodeHash: string) => useQuery(storedValueQueryOptions(barcodeHash));
