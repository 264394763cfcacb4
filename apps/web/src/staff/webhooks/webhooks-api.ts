// Data access of the Webhooks tab: fetchers, query options and the refresh hook side by side. Every
// query key starts with the tab's key, and each change invalidates the tab's queries.
import { z } from 'zod';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  WEBHOOKS_API,
  webhookEndpointList,
  webhookEndpointWithSecret,
  webhookMessageList,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookMessage,
} from '@boardwalk/contract/webhooks';
import { webhooks as tab } from '@boardwalk/contract/staff-operations-tabs';
import { staffRequest } from '../auth/staff-api.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';

const KEY = [STAFF_QUERY_KEY, tab.key] as const;

export const endpointsQuery = queryOptions({
  queryKey: [...KEY, 'endpoints'],
  queryFn: async ({ signal }) => (await staffRequest(WEBHOOKS_API, { signal, schema: webhookEndpointList })).data,
  refetchInterval: 15_000,
});

/** A message the worker is about to send: the list is fetched every second until it settles. */
const onItsWay = (m: WebhookMessage) => m.state === 'pending' || m.state === 'waiting';

export const messagesQuery = (endpointId: string) =>
  queryOptions({
    queryKey: [...KEY, 'messages', endpointId],
    queryFn: async ({ signal }) =>
      (await staffRequest(`${WEBHOOKS_API}${endpointId}/messages`, { signal, schema: webhookMessageList })).data,
    refetchInterval: (query) => (query.state.data?.messages.some(onItsWay) ? 1_000 : 5_000),
  });

/** Saves an endpoint (PUT when it exists); a new one answers its signing secret, else null. */
export async function saveEndpoint(endpoint: WebhookEndpoint | null, body: WebhookEndpointInput) {
  if (endpoint) {
    await staffRequest(`${WEBHOOKS_API}${endpoint.id}`, { method: 'PUT', body, schema: z.unknown() });
    return null;
  }
  return (await staffRequest(WEBHOOKS_API, { method: 'POST', body, schema: webhookEndpointWithSecret })).data.secret;
}

export type EndpointChange = { action: 'rotate' | 'delete'; endpoint: WebhookEndpoint };

/** Deletes the endpoint (null) or rotates its secret (the new secret). */
export async function changeEndpoint({ action, endpoint }: EndpointChange) {
  if (action === 'delete') {
    await staffRequest(`${WEBHOOKS_API}${endpoint.id}`, { method: 'DELETE', schema: z.unknown() });
    return null;
  }
  return (await staffRequest(`${WEBHOOKS_API}${endpoint.id}/rotate`, { method: 'POST', schema: webhookEndpointWithSecret })).data.secret;
}

export const sendTestEvent = (id: string) => staffRequest(`${WEBHOOKS_API}${id}/test`, { method: 'POST', schema: z.unknown() });

export const resendMessage = (id: string) => staffRequest(`${WEBHOOKS_API}messages/${id}/resend`, { method: 'POST', schema: z.unknown() });

/** Refreshes the tab's queries (after a change). */
export function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KEY });
}
