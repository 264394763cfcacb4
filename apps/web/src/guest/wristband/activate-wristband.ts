// POST /api/wristband/activate/: the fetcher and its mutation side by side. The answer is the
// validity text ("Valid through 11/21/26").
import { useMutation } from '@tanstack/react-query';
import type { WristbandActivateRequest } from '@boardwalk/contract/wristband';
import { apiText } from '../../lib/api-client.ts';

export function activateWristband(request: WristbandActivateRequest): Promise<string> {
  return apiText('/api/wristband/activate/', { method: 'POST', body: request });
}

export function useActivateWristband(options: { onSuccess: (validity: string) => void }) {
  return useMutation({ mutationFn: activateWristband, onSuccess: (validity) => options.onSuccess(validity) });
}
