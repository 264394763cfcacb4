// The Webhooks tab: the endpoints the operator's systems receive events at (URL, description,
// the event types, active), each with its state (disabled by a 410 or 5 failing days), its
// rotation and its last 24 hours; Add and Edit in a modal; the signing secret shown once, after
// creation or a rotation, and kept nowhere else; Send test event; and the chosen endpoint's
// recent messages (waiting, pending, retrying, delivered, dead) with Resend for a dead one.
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { WebhookEndpoint } from '@boardwalk/contract/webhooks';
import { webhooks as tab } from '@boardwalk/contract/staff-operations-tabs';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffErrorToast } from '../auth/staff-errors.ts';
import { ListStates } from '../resources/staff-table.tsx';
import { changeEndpoint, endpointsQuery, sendTestEvent, useRefreshWebhooks, type EndpointChange } from './webhooks-api.ts';
import { WebhookEndpointForm } from './webhook-endpoint-form.tsx';
import { WebhookMessages } from './webhook-messages.tsx';
import { ConfirmChangeModal, SecretModal } from './webhook-modals.tsx';
import { at, DISABLED_BECAUSE, lastDay } from './webhook-format.ts';

type Dialog =
  { kind: 'form'; endpoint: WebhookEndpoint | null } | { kind: 'secret'; secret: string } | ({ kind: 'confirm' } & EndpointChange);

/** One endpoint: its name, state, URL, event types and last day, and its buttons. */
function EndpointItem({
  endpoint,
  selected,
  testing,
  onSelect,
  onTest,
  onDialog,
}: {
  endpoint: WebhookEndpoint;
  selected: boolean;
  testing: boolean;
  onSelect: () => void;
  onTest: () => void;
  onDialog: (dialog: Dialog) => void;
}) {
  return (
    <li className={`border rounded p-3 mb-2${selected ? ' border-primary' : ''}`}>
      <div className="d-flex flex-wrap gap-2 align-items-baseline">
        <strong className="text-break">{endpoint.description || 'Endpoint'}</strong>
        {endpoint.active ? (
          <Badge bg="success">Active</Badge>
        ) : (
          <Badge bg="secondary">{endpoint.disabledReason ? DISABLED_BECAUSE[endpoint.disabledReason] : 'Disabled'}</Badge>
        )}
      </div>
      <div className="small text-break font-monospace">{endpoint.url}</div>
      <div className="small text-body-secondary">
        {endpoint.eventTypes === null ? 'All events' : endpoint.eventTypes.join(', ')} · {lastDay(endpoint)}
        {endpoint.failingSince ? ` · failing since ${at(endpoint.failingSince)}` : ''}
        {endpoint.previousSecretUntil ? ` · both secrets sign until ${at(endpoint.previousSecretUntil)}` : ''}
      </div>
      <div className="d-flex flex-wrap gap-2 mt-2">
        <Button size="sm" variant="outline-primary" aria-pressed={selected} onClick={onSelect}>
          Messages
        </Button>
        <Button size="sm" variant="outline-primary" disabled={!endpoint.active || testing} onClick={onTest}>
          Send test event
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => onDialog({ kind: 'form', endpoint })}>
          Edit
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => onDialog({ kind: 'confirm', action: 'rotate', endpoint })}>
          Rotate secret
        </Button>
        <Button size="sm" variant="outline-danger" onClick={() => onDialog({ kind: 'confirm', action: 'delete', endpoint })}>
          Delete
        </Button>
      </div>
    </li>
  );
}

export function WebhooksPage() {
  const { data, isPending } = useQuery(endpointsQuery);
  const refresh = useRefreshWebhooks();
  const toast = useToast();
  const onError = useStaffErrorToast();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const test = useMutation({
    mutationFn: sendTestEvent,
    onSuccess: async (_answer, id) => {
      setSelectedId(id);
      toast('Webhooks: test event queued.', 'success');
      await refresh();
    },
    onError,
  });
  const confirm = useMutation({
    mutationFn: changeEndpoint,
    onSuccess: async (secret, { endpoint }) => {
      if (secret) setDialog({ kind: 'secret', secret });
      else {
        setDialog(null);
        if (selectedId === endpoint.id) setSelectedId(null);
        toast('Webhooks: endpoint deleted.', 'success');
      }
      await refresh();
    },
    onError,
  });

  const endpoints = data?.endpoints ?? [];
  const selected = endpoints.find((e) => e.id === selectedId) ?? null;

  return (
    <section className="staff-webhooks" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" className="h4 mb-3">
        {tab.title}
      </h2>
      <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-3">
        <p className="mb-0">
          Events (registrations, consents, shares, wristbands, wallet passes, the loyalty club) are sent to these endpoints, signed.
        </p>
        <Button onClick={() => setDialog({ kind: 'form', endpoint: null })}>Add endpoint</Button>
      </div>
      <ListStates
        pending={isPending}
        empty={endpoints.length === 0}
        loading="Loading…"
        none="No webhook endpoints yet. Add one to send events to your CRM."
        noneClassName="text-body-secondary"
      >
        <ul className="list-unstyled staff-webhook-endpoints" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <EndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              selected={endpoint.id === selectedId}
              testing={test.isPending}
              onSelect={() => setSelectedId(endpoint.id)}
              onTest={() => test.mutate(endpoint.id)}
              onDialog={setDialog}
            />
          ))}
        </ul>
      </ListStates>
      {selected ? <WebhookMessages endpoint={selected} /> : null}

      {dialog?.kind === 'form' ? (
        <WebhookEndpointForm
          endpoint={dialog.endpoint}
          eventTypes={data?.eventTypes ?? []}
          onClose={() => setDialog((d) => (d?.kind === 'form' ? null : d))}
          onCreated={(secret) => setDialog({ kind: 'secret', secret })}
        />
      ) : null}
      {dialog?.kind === 'secret' ? <SecretModal secret={dialog.secret} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'confirm' ? (
        <ConfirmChangeModal
          change={dialog}
          busy={confirm.isPending}
          onConfirm={() => confirm.mutate({ action: dialog.action, endpoint: dialog.endpoint })}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}
