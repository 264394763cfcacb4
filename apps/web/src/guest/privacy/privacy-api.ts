// A guest's own privacy request: ask for the link by email; read what is held and erase it with
// the link's token. Fetchers, the query and the mutations side by side.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { guestPrivacyMessages, privacyErasure, privacyExport, privacyLinkAnswer } from '@boardwalk/contract/privacy';
import { apiRequest } from '../../lib/api-client.ts';

export const usePrivacyLink = () =>
  useMutation({
    mutationFn: (email: string) => apiRequest('/api/privacy/request', { method: 'POST', body: { email }, schema: privacyLinkAnswer }),
  });

export const personalDataQuery = (token: string) =>
  queryOptions({
    queryKey: ['privacy-data', token],
    queryFn: ({ signal }) => apiRequest('/api/privacy/data', { token, signal, schema: privacyExport }),
    retry: false,
  });

export const useEraseOwnData = (token: string) =>
  useMutation({ mutationFn: () => apiRequest('/api/privacy/erase', { method: 'POST', token, schema: privacyErasure }) });

export type LinkRefusal = keyof typeof guestPrivacyMessages;

/**
 * Why the server refused the link (UNAUTHORIZED: none given, expired, not valid, already used
 * to delete), which its answer says only in English (guestPrivacyMessages): the one place that
 * reads it, until the server sends a reason code. A text it does not know is a link not valid.
 */
export function linkRefusal(message: string | undefined): LinkRefusal {
  const known = Object.entries(guestPrivacyMessages).find(([, text]) => text === message);
  return known ? (known[0] as LinkRefusal) : 'invalid';
}
