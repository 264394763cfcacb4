// POST /api/register/: the fetcher and its mutation, which puts the answered order in the
// pass query's cache entry (no second lookup).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passOrder, type PassOrder, type RegisterRequest } from '@boardwalk/contract/pass';
import { apiRequest } from '../../lib/api-client.ts';
import { isIOS } from '../../lib/device.ts';
import { passQueryKey } from '../ticket/get-pass.ts';
import type { PassCredentials } from '../ticket/pass-route.ts';

export function registerPass(request: RegisterRequest): Promise<PassOrder> {
  return apiRequest('/api/register/', { method: 'POST', body: { ...request, isIOS: isIOS() }, schema: passOrder });
}

export function useRegisterPass(credentials: PassCredentials) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPass,
    onSuccess: (order) => queryClient.setQueryData(passQueryKey(credentials), order),
  });
}
