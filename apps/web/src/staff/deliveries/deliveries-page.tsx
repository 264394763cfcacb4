// The Deliveries tab: the Apple signer certificate's expiry (a warning when it is near), how
// many deliveries to Apple, Google and mail are in each state, and the failed and dead ones
// (the generic list, scoped by the declaration) with a Retry button for members holding
// `Deliveries Retry`.
import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import {
  appleCertificateStatus,
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

const certificateQuery = queryOptions({
  queryKey: [STAFF_QUERY_KEY, resource.key, 'certificate'],
  queryFn: async ({ signal }) => (await staffRequest(`${resource.api}certificate`, { signal, schema: appleCertificateStatus })).data,
});

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** The Apple signer certificate's expiry: a line, or a warning from APPLE_CERT_WARNING_DAYS before it. */
function CertificateExpiry() {
  const { data } = useQuery(certificateQuery);
  if (!data) return null;
  const date = longDate.format(new Date(data.notAfter));
  const kind = data.development ? 'development signing certificate' : 'signing certificate';
  if (!data.warning) {
    return (
      <p className="small text-body-secondary mb-2">
        Apple Wallet {kind} valid until {date} ({data.daysLeft} days).
      </p>
    );
  }
  return (
    <Alert variant={data.daysLeft < 0 ? 'danger' : 'warning'} className="py-2">
      {data.daysLeft < 0
        ? `The Apple Wallet ${kind} expired on ${date}: new passes do not install and updates are not pushed.`
        : `The Apple Wallet ${kind} expires on ${date}, in ${data.daysLeft} ${data.daysLeft === 1 ? 'day' : 'days'}.`}{' '}
      Renew it with Apple and replace the certificate file (APPLE_CERT_FILE).
    </Alert>
  );
}

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
      intro={
        <>
          <CertificateExpiry />
          {countsByState}
        </>
      }
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
