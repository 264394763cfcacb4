// A guest's own privacy request: ask for the link by email; read what is held and erase it with
// the link's token. Fetchers, the query and the mutations side by side.
import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  PRIVACY_LINK_REFUSALS,
  privacyErasure,
  privacyExport,
  privacyLinkAnswer,
  type PrivacyLinkRefusal,
} from '@boardwalk/contract/privacy';
import { refusalOf } from '@boardwalk/contract/errors';
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

/**
 * Why the server refused the link (UNAUTHORIZED: none given, expired, not valid, already used
 * to delete), by its answer's reason; a reason it does not know is a link not valid.
 */
export const linkRefusal = (reason: string | undefined): PrivacyLinkRefusal => refusalOf(PRIVACY_LINK_REFUSALS, reason) ?? 'invalid';
