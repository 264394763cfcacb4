// The Deliveries tab: how many deliveries to Apple, Google and mail are in each state, and
// the failed and dead ones (the generic list, scoped by the declaration) with a Retry button
// for members holding `Deliveries Retry`.
import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import {
  DELIVERY_RETRY,
  DELIVERY_STATES,
  deliveryCounts,
  deliveries as resource,
  type DeliveryState,
} from '@boardwalk/contract/staff-resources';
import { useToast } from '../admin/toasts.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';
import { ResourceList } from '../resources/resource-list.tsx';

const STATE_LABELS: Record<DeliveryState, { label: string; bg: string; text?: 'dark' }> = {
  queued: { label: 'Queued', bg: 'secondary' },
  sent: { label: 'Sent', bg: 'success' },
  skipped: { label: 'Skipped', bg: 'light', text: 'dark' },
  retrying: { label: 'Retrying', bg: 'warning', text: 'dark' },
  dead: { label: 'Dead', bg: 'danger' },
};

const countsQuery = queryOptions({
  queryKey: [STAFF_QUERY_KEY, resource.key, 'counts'],
  queryFn: async ({ signal }) => (await staffRequest(`${resource.api}counts`, { signal, schema: deliveryCounts })).data,
  refetchInterval: 15_000,
});

export function DeliveriesPage({ user }: { user: StaffUser }) {
  const counts = useQuery(countsQuery);
  const queryClient = useQueryClient();
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  const retry = useMutation({
    mutationFn: (id: string) => staffRequest(`${DELIVERY_RETRY.api}${encodeURIComponent(id)}`, { method: 'POST', schema: z.unknown() }),
    onSuccess: async () => {
      toast('Deliveries: retry queued.', 'success');
      await queryClient.invalidateQueries({ queryKey: [STAFF_QUERY_KEY, resource.key] });
    },
    onError: (error) => {
      // A 409 (retried meanwhile) is said here; everything else the handler toasts itself.
      const message = handleError(error);
      if (message) toast(message, 'danger');
    },
  });
  const canRetry = hasPermission(user, DELIVERY_RETRY);

  const countsByState = (
    <ul className="list-inline mb-3 staff-delivery-counts" aria-label="Deliveries by state">
      {DELIVERY_STATES.map((state) => (
        <li key={state} className="list-inline-item">
          <Badge bg={STATE_LABELS[state].bg} text={STATE_LABELS[state].text} pill>
            {STATE_LABELS[state].label}: {counts.data ? counts.data[state] : '…'}
          </Badge>
        </li>
      ))}
    </ul>
  );

  return (
    <ResourceList
      resource={resource}
      user={user}
      intro={countsByState}
      rowActions={
        canRetry
          ? (row) => (
              <Button
                size="sm"
                variant="outline-primary"
                disabled={retry.isPending}
                onClick={() => retry.mutate(String(row[resource.idField]))}
              >
                Retry
              </Button>
            )
          : undefined
      }
    />
  );
}
