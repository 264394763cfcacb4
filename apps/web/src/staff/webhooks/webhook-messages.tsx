// The chosen endpoint's latest messages (waiting, pending, retrying, delivered, dead), with
// Resend on a dead one.
import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { WEBHOOK_MESSAGE_STATE_LABELS, type WebhookEndpoint } from '@boardwalk/contract/webhooks';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffErrorToast } from '../auth/staff-errors.ts';
import { ListStates, StaffTable } from '../resources/staff-table.tsx';
import { endpointsQuery, messagesQuery, resendMessage, useRefreshWebhooks } from './webhooks-api.ts';
import { at, STATE_BADGES } from './webhook-format.ts';

const COLUMNS = ['Created', 'Type', 'State', 'Attempts', 'Last status', 'Latency', 'Next attempt', 'Last error'];

/** The last error, cut to 80 characters. */
const shortError = (error: string | null) => (error ? (error.length > 80 ? `${error.slice(0, 80)}…` : error) : '–');

export function WebhookMessages({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { data } = useQuery(messagesQuery(endpoint.id));
  // A message that settles can change its endpoint's standing (a 410 Gone disables it, the last
  // 24 hours' counts): the endpoints are fetched again then, not at their next 15 s refresh. The
  // first list counts too: a test event answered 410 before this list first loaded (it opens
  // when the test is queued) has disabled the endpoint already.
  const settled = data?.messages
    .filter((m) => m.state === 'delivered' || m.state === 'dead')
    .map((m) => m.id)
    .join();
  const queryClient = useQueryClient();
  const seen = useRef<string>(undefined);
  useEffect(() => {
    if (settled && settled !== seen.current) void queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    seen.current = settled;
  }, [settled, queryClient]);
  const toast = useToast();
  const refresh = useRefreshWebhooks();
  const resend = useMutation({
    mutationFn: resendMessage,
    onSuccess: async () => {
      toast('Webhooks: message queued again.', 'success');
      await refresh();
    },
    onError: useStaffErrorToast(),
  });
  return (
    <section aria-labelledby="webhook-messages-heading" className="mt-4">
      <h3 id="webhook-messages-heading" className="h6">
        Latest messages to {endpoint.description || endpoint.url}
      </h3>
      <ListStates
        pending={!data}
        empty={data?.messages.length === 0}
        loading="Loading…"
        none="No messages yet."
        noneClassName="text-body-secondary"
      >
        <StaffTable label="Latest messages" columns={COLUMNS} actions striped>
          {data?.messages.map((m) => (
            <tr key={m.id}>
              <td className="text-nowrap">{at(m.createdAt)}</td>
              <td>{m.type}</td>
              <td>
                <Badge bg={STATE_BADGES[m.state].bg} text={STATE_BADGES[m.state].text}>
                  {WEBHOOK_MESSAGE_STATE_LABELS[m.state]}
                </Badge>
              </td>
              <td>{m.attempts}</td>
              <td>{m.lastStatus ?? '–'}</td>
              <td>{m.lastLatencyMs === null ? '–' : `${m.lastLatencyMs} ms`}</td>
              <td className="text-nowrap">{at(m.nextAttemptAt)}</td>
              <td className="small">{shortError(m.lastError)}</td>
              <td>
                {m.state === 'dead' ? (
                  <Button size="sm" variant="outline-primary" disabled={resend.isPending} onClick={() => resend.mutate(m.id)}>
                    Resend
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </StaffTable>
      </ListStates>
    </section>
  );
}
