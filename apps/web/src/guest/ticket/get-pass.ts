// POST /api/login/: the fetcher, its query (a URL that names a pass loads it) and the
// login mutation of the form, side by side.
import { queryOptions, useMutation, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import { passOrder, type LoginRequest, type PassOrder } from '@boardwalk/contract/pass';
import { apiRequest } from '../../lib/api-client.ts';
import { isIOS } from '../../lib/device.ts';
import type { PassCredentials } from './pass-route.ts';

function toLoginRequest(credentials: PassCredentials): LoginRequest {
  if (credentials.kind === 'hashUrl') return { hashUrl: credentials.hashUrl, isIOS: isIOS() };
  const { orderId, barcode, shareId } = credentials;
  return { orderId, barcode, ...(shareId && { shareId }), isIOS: isIOS() };
}

export function getPass(credentials: PassCredentials, signal?: AbortSignal): Promise<PassOrder> {
  return apiRequest('/api/login/', { method: 'POST', body: toLoginRequest(credentials), schema: passOrder, ...(signal && { signal }) });
}

export const passQueryKey = (credentials: PassCredentials) => ['pass', credentials] as const;

export const passQueryOptions = (credentials: PassCredentials) =>
  queryOptions({ queryKey: passQueryKey(credentials), queryFn: ({ signal }) => getPass(credentials, signal) });

/** The pass a URL names; idle on the bare page. */
export function usePass(credentials: PassCredentials | null) {
  return useQuery({
    ...passQueryOptions(credentials ?? { kind: 'hashUrl', hashUrl: '' }),
    enabled: credentials !== null,
  });
}

/** The login form's lookup. */
export function useLogin(options: Pick<UseMutationOptions<PassOrder, Error, PassCredentials>, 'onSuccess'> = {}) {
  return useMutation({ mutationFn: (credentials: PassCredentials) => getPass(credentials), ...options });
}
