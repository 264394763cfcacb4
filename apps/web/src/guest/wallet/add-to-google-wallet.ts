// POST /api/google-wallet/: the "Save to Google Wallet" link as text, opened in a new tab; the
// mutation's data is the link the page offers as "View Your Pass" (a tab opened after an answer
// may be blocked).
import { useMutation } from '@tanstack/react-query';
import type { GoogleWalletRequest } from '@boardwalk/contract/wallet';
import { apiText, unexpectedAnswer } from '../../lib/api-client.ts';

/** The link, which must be an https URL: the page opens it and shows it as a link. */
export async function getGoogleWalletLink(request: GoogleWalletRequest): Promise<string> {
  const text = await apiText('/api/google-wallet/', { method: 'POST', body: request });
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    unexpectedAnswer('The Google Wallet link is not a URL', cause);
  }
  if (url.protocol !== 'https:') unexpectedAnswer('The Google Wallet link is not an https URL');
  return url.href;
}

export function useAddToGoogleWallet() {
  return useMutation({
    mutationFn: getGoogleWalletLink,
    onSuccess: (link) => {
      window.open(link, '_blank', 'noopener,noreferrer');
    },
  });
}
