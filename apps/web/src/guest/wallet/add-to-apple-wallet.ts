// POST /api/apple-wallet/: the signed pass, saved as a download named for the brand,
// and its mutation.
import { useMutation } from '@tanstack/react-query';
import type { AppleWalletRequest } from '@boardwalk/contract/wallet';
import { apiFile, type DownloadedFile } from '../../lib/api-client.ts';
import { saveFile } from './wallet-api.ts';

export const PKPASS_TYPE = 'application/vnd.apple.pkpass';

export function getApplePass(request: AppleWalletRequest, brandName: string | null): Promise<DownloadedFile> {
  return apiFile('/api/apple-wallet/', {
    method: 'POST',
    body: request,
    accept: PKPASS_TYPE,
    fallbackName: `${brandName ?? 'pass'}.pkpass`,
  });
}

export function useAddToAppleWallet(brandName: string | null) {
  return useMutation({
    mutationFn: (request: AppleWalletRequest) => getApplePass(request, brandName),
    onSuccess: saveFile,
  });
}
