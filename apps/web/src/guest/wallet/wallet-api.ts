// What the wallet and voucher calls share: the request body (order id and barcode, with the
// share id of a shared guest, or a share link's hashUrl alone), and saving a file the server
// sends (lib/api-client.ts apiFile) as a download.
import type { AppleWalletRequest } from '@boardwalk/contract/wallet';
import type { DownloadedFile } from '../../lib/api-client.ts';
import type { PassCredentials } from '../ticket/pass-route.ts';

export function walletRequest(credentials: PassCredentials): AppleWalletRequest {
  if (credentials.kind === 'hashUrl') return { hashUrl: credentials.hashUrl };
  const { orderId, barcode, shareId } = credentials;
  return { orderId, barcode, ...(shareId && { shareId }) };
}

/**
 * Saves a file as a download under its name: an object URL on a link with the download
 * attribute, which every browser the guest pages support honours (file-saver only adds
 * fallbacks for browsers without it). The URL is released once the download has surely
 * started.
 */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
