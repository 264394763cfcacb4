// The visit reservation calls: the pass's calendar (a query), book, waitlist and cancel (each
// answers the calendar as it now stands, which replaces the query's data).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { refusalOf } from '@boardwalk/contract/errors';
import { VISIT_REFUSALS, visitCalendar, type VisitCalendar } from '@boardwalk/contract/visits';
import { apiRequest, failedWith } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';

export interface VisitPass {
  orderId: string;
  barcode: string;
}

const calendarKey = (pass: VisitPass) => ['visits', pass.orderId, pass.barcode] as const;

export function useVisitCalendar(pass: VisitPass) {
  return useQuery({
    queryKey: calendarKey(pass),
    queryFn: () => apiRequest('/api/visits/', { method: 'POST', body: pass, schema: visitCalendar }),
  });
}

export type VisitChange = { action: 'book' | 'waitlist'; windowId: string } | { action: 'cancel'; reservationId: string };

export function useChangeVisit(pass: VisitPass) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: VisitChange): Promise<VisitCalendar> => {
      const { action, ...ids } = change;
      return apiRequest(`/api/visits/${action}/`, { method: 'POST', body: { ...pass, ...ids }, schema: visitCalendar });
    },
    onSuccess: (calendar) => queryClient.setQueryData(calendarKey(pass), calendar),
    // A refusal may mean the calendar moved on (a window filled): read it again.
    onError: () => queryClient.invalidateQueries({ queryKey: calendarKey(pass) }),
  });
}

/** The refusals worded without values, by their key in VISIT_REFUSALS. */
const PLAIN_REFUSALS = {
  full: 'refusedFull',
  notFull: 'refusedNotFull',
  notOpen: 'refusedNotOpen',
  blockedDay: 'refusedBlockedDay',
  past: 'refusedPast',
  alreadyHeld: 'refusedAlreadyHeld',
} as const;

/** A refused or failed change in the page's language, by the refusal's reason. */
export function useVisitErrors(formatDate: (iso: string) => string) {
  const t = useTranslations('visits');
  const describe = useRequestErrors();
  return useCallback(
    (error: unknown): string => {
      if (failedWith(error, 'CONFLICT', 'FORBIDDEN')) {
        const refusal = refusalOf(VISIT_REFUSALS, error.body?.reason);
        const params = error.body?.params ?? {};
        if (refusal === 'limit') return t('refusedLimit', { limit: Number(params.limit) });
        if (refusal === 'noShows') return t('refusedNoShows', { date: formatDate(String(params.blockedUntil)) });
        if (refusal && refusal !== 'notRequired') return t(PLAIN_REFUSALS[refusal]);
      }
      return describe(error, { networkError: t('networkError'), failure: t('failed') });
    },
    [t, describe, formatDate],
  );
}
