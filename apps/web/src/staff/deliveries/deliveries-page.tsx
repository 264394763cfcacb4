// The Deliveries tab: the Apple signer certificate's expiry (a warning when it is near), how
// many deliveries to Apple, Google and mail are in each state, the Apple pushes of the last 24
// hours (sent, fetched by the device, not fetched after an hour, push-to-fetch latency) with
// the devices that stopped fetching, and the deliveries (the generic list: the failed and dead
// ones, or any state by its filter) with a Retry button for members holding `Deliveries Retry`.
import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import {
  appleCertificateStatus,
  applePushReport,
  DELIVERY_RETRY,
  deliveryCounts,
  deliveries as resource,
} from '@boardwalk/contract/staff-operations-tabs';
import { DELIVERY_STATE_LABELS, DELIVERY_STATES, FAILED_DELIVERY_STATES, type DeliveryState } from '@boardwalk/contract/deliveries';
import { useToast } from '../../ui/toasts.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorToast } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';
import { ResourceList } from '../resources/resource-list.tsx';

const STATE_BADGES: Record<DeliveryState, { bg: string; text?: 'dark' }> = {
  queued: { bg: 'secondary' },
  sent: { bg: 'success' },
  fetched: { bg: 'primary' },
  skipped: { bg: 'light', text: 'dark' },
  retrying: { bg: 'warning', text: 'dark' },
  dead: { bg: 'danger' },
};

const countsQuery = queryOptions({
  queryKey: [STAFF_QUERY_KEY, resource.key, 'counts'],
  queryFn: async ({ signal }) => (await staffRequest(`${resource.api}counts`, { signal, schema: deliveryCounts })).data,
  refetchInterval: 15_000,
});

const pushesQuery = queryOptions({
  queryKey: [STAFF_QUERY_KEY, resource.key, 'pushes'],
  queryFn: async ({ signal }) => (await staffRequest(`${resource.api}pushes`, { signal, schema: applePushReport })).data,
  refetchInterval: 60_000,
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

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A latency in seconds as staff read it: seconds under two minutes, then minutes. */
const latency = (seconds: number | null) =>
  seconds === null ? '–' : seconds < 120 ? `${seconds.toFixed(1)} s` : `${(seconds / 60).toFixed(1)} min`;

/** The Apple pushes of the last 24 hours, and the registered devices that stopped fetching their pass. */
function ApplePushes() {
  const { data } = useQuery(pushesQuery);
  const figures: [string, string][] = [
    ['Pushes sent', data ? String(data.sent) : '…'],
    ['Fetched', data ? String(data.fetched) : '…'],
    ['Not fetched after 1 hour', data ? String(data.notFetchedAfterHour) : '…'],
    ['Push to fetch, median', data ? latency(data.p50Seconds) : '…'],
    ['Push to fetch, 95th percentile', data ? latency(data.p95Seconds) : '…'],
  ];
  return (
    <section aria-labelledby="apple-pushes-heading" className="mb-3">
      <h3 id="apple-pushes-heading" className="h6">
        Apple Wallet pushes, last 24 hours
      </h3>
      <dl className="staff-push-figures mb-2">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {data && data.silentDevices.length > 0 ? (
        <Alert variant="warning" className="py-2">
          <p className="mb-2">
            {data.silentDevices.length === 1 ? 'A device has' : `${data.silentDevices.length} devices have`} not fetched their pass after 3
            or more pushes in a row. Their registrations stay until Apple reports the pass removed.
          </p>
          <ul className="mb-0 ps-3" aria-label="Devices not fetching their pass">
            {data.silentDevices.map((d) => (
              <li key={`${d.recipient}-${d.barcode ?? ''}-${d.lastPushAt}`}>
                {d.recipient}, {d.barcode ? `ticket ${d.barcode}` : 'member card'}: {d.unfetchedPushes} pushes not fetched, the last on{' '}
                {dateTime.format(new Date(d.lastPushAt))}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </section>
  );
}

export function DeliveriesPage({ user }: { user: StaffUser }) {
  const counts = useQuery(countsQuery);
  const queryClient = useQueryClient();
  const toast = useToast();
  const showError = useStaffErrorToast();
  const retry = useMutation({
    mutationFn: (id: string) => staffRequest(`${DELIVERY_RETRY.api}${encodeURIComponent(id)}`, { method: 'POST', schema: z.unknown() }),
    onSuccess: async () => {
      toast('Deliveries: retry queued.', 'success');
      await queryClient.invalidateQueries({ queryKey: [STAFF_QUERY_KEY, resource.key] });
    },
    // A 409 (retried meanwhile) is said in a toast; everything else the handler toasts itself.
    onError: showError,
  });
  const canRetry = hasPermission(user, DELIVERY_RETRY);

  const countsByState = (
    <ul className="list-inline mb-3 staff-delivery-counts" aria-label="Deliveries by state">
      {DELIVERY_STATES.map((state) => (
        <li key={state} className="list-inline-item">
          <Badge bg={STATE_BADGES[state].bg} text={STATE_BADGES[state].text} pill>
            {DELIVERY_STATE_LABELS[state]}: {counts.data ? counts.data[state] : '…'}
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
          <ApplePushes />
        </>
      }
      rowActions={
        canRetry
          ? (row) =>
              FAILED_DELIVERY_STATES.includes(row.deliveryState as DeliveryState) ? (
                <Button
                  size="sm"
                  variant="outline-primary"
                  disabled={retry.isPending}
                  onClick={() => retry.mutate(String(row[resource.idField]))}
                >
                  Retry
                </Button>
              ) : null
          : undefined
      }
    />
  );
}
