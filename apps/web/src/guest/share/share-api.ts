// The ticket share calls (/api/share/...), each with the order object's ticketShareToken: the
// list's fetcher, query and key, and the three mutations, which reload the list by its key.
import { useCallback } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'use-intl';
import { z } from 'zod/mini';
import type { PassOrder, TicketShare } from '@boardwalk/contract/pass';
import { SHARE_REFUSALS, shareAnswer, shareList, type ShareFields } from '@boardwalk/contract/share';
import { apiResponse, ApiRequestError, failedWith } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';

/** What the share calls need of the order: the ticket, its order id and the token. */
export type ShareTicket = Pick<PassOrder, 'orderId' | 'barcode' | 'ticketShareToken'>;

export const sharesQueryKey = (barcode: string) => ['ticket-shares', barcode] as const;

/** GET /api/share/{barcode}: 204 (no body) is an empty list. */
export async function getShares(ticket: ShareTicket, signal?: AbortSignal): Promise<TicketShare[]> {
  const { data } = await apiResponse(`/api/share/${encodeURIComponent(ticket.barcode)}`, {
    token: ticket.ticketShareToken,
    schema: z.union([shareList, z.undefined()]),
    signal,
  });
  return data ?? [];
}

export const sharesQueryOptions = (ticket: ShareTicket) =>
  queryOptions({ queryKey: sharesQueryKey(ticket.barcode), queryFn: ({ signal }) => getShares(ticket, signal) });

export const useShares = (ticket: ShareTicket) => useQuery(sharesQueryOptions(ticket));

export async function createShare(ticket: ShareTicket, fields: ShareFields): Promise<TicketShare> {
  const { data } = await apiResponse('/api/share/', {
    method: 'POST',
    token: ticket.ticketShareToken,
    body: { orderId: ticket.orderId, barcode: ticket.barcode, hashUrl: '', ...fields },
    schema: shareAnswer,
  });
  return data;
}

export async function updateShare(ticket: ShareTicket, share: TicketShare, fields: ShareFields): Promise<TicketShare> {
  const { data } = await apiResponse(`/api/share/${encodeURIComponent(ticket.barcode)}/${encodeURIComponent(share.id)}`, {
    method: 'PUT',
    token: ticket.ticketShareToken,
    body: { ...fields, salesforceId: share.salesforceId },
    schema: shareAnswer,
  });
  return data;
}

export async function deleteShare(ticket: ShareTicket, share: TicketShare): Promise<void> {
  const path = [ticket.orderId || '0', ticket.barcode, share.id, share.salesforceId ?? ''].map(encodeURIComponent).join('/');
  await apiResponse(`/api/share/${path}`, { method: 'DELETE', token: ticket.ticketShareToken, schema: z.undefined() });
}

/** The three changes, each reloading the list by its key once it succeeded. */
export function useShareMutations(ticket: ShareTicket) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: sharesQueryKey(ticket.barcode) });
  return {
    create: useMutation({ mutationFn: (fields: ShareFields) => createShare(ticket, fields), onSuccess }),
    update: useMutation({
      mutationFn: ({ share, fields }: { share: TicketShare; fields: ShareFields }) => updateShare(ticket, share, fields),
      onSuccess,
    }),
    remove: useMutation({ mutationFn: (share: TicketShare) => deleteShare(ticket, share), onSuccess }),
  };
}

type ShareCall = 'list' | 'create' | 'update' | 'delete';

/**
 * A share call's failure: 408 the expired-session text; the share limit ("at most 10 guests")
 * and the day's share emails (until 2 AM) each in its own words, by the answer's reason, with
 * the limit it names; another 400 the errors catalogue's; no answer "Error ..."; else "Unable to ...".
 */
export function useShareErrorMessage() {
  const describe = useRequestErrors();
  const t = useTranslations();
  return useCallback(
    (error: unknown, call: ShareCall): string => {
      if (failedWith(error, 'TOKEN_EXPIRED')) return t('share.expired');
      const reason = error instanceof ApiRequestError ? error.body?.reason : undefined;
      const limit = error instanceof ApiRequestError ? Number(error.body?.params?.limit) : Number.NaN;
      if (reason === SHARE_REFUSALS.limitReached && Number.isFinite(limit)) return t('share.limitReached', { limit });
      // The ticket's share emails for the day are used up: until 2 AM.
      if (reason === SHARE_REFUSALS.mailLimitReached && Number.isFinite(limit)) return t('share.mailLimitReached', { limit });
      if (failedWith(error, 'VALIDATION_FAILED')) return t('errors.VALIDATION_FAILED');
      return describe(error, { networkError: t(`share.calls.${call}.networkError`), failure: t(`share.calls.${call}.failure`) });
    },
    [describe, t],
  );
}
