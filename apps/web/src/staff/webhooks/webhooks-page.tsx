// The Webhooks tab: the endpoints the operator's systems receive events at (URL, description,
// the event types, active), each with its state (disabled by a 410 or 5 failing days), its
// rotation and its last 24 hours; Add and Edit in a modal; the signing secret shown once, after
// creation or a rotation, and kept nowhere else; Send test event; and the chosen endpoint's
// recent messages (waiting, pending, retrying, delivered, dead) with Resend for a dead one.
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import {
  WEBHOOK_MESSAGE_STATE_LABELS,
  WEBHOOKS_API,
  webhookEndpointList,
  webhookEndpointWithSecret,
  webhookMessageList,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookMessageState,
} from '@boardwalk/contract/webhooks';
import { webhooks as tab } from '@boardwalk/contract/staff-resources';
import { BusyButton } from '../../ui/busy-button.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { ScrollRegion } from '../resources/scroll-region.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';

const KEY = [STAFF_QUERY_KEY, tab.key] as const;

const endpointsQuery = queryOptions({
  queryKey: [...KEY, 'endpoints'],
  queryFn: async ({ signal }) => (await staffRequest(WEBHOOKS_API, { signal, schema: webhookEndpointList })).data,
  refetchInterval: 15_000,
});

const messagesQuery = (endpointId: string) =>
  queryOptions({
    queryKey: [...KEY, 'messages', endpointId],
    queryFn: async ({ signal }) =>
      (await staffRequest(`${WEBHOOKS_API}${endpointId}/messages`, { signal, schema: webhookMessageList })).data,
    refetchInterval: 5_000,
  });

const STATE_BADGES: Record<WebhookMessageState, { bg: string; text?: 'dark' }> = {
  waiting: { bg: 'secondary' },
  pending: { bg: 'secondary' },
  retrying: { bg: 'warning', text: 'dark' },
  delivered: { bg: 'success' },
  dead: { bg: 'danger' },
};

const when = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : '–');

const DISABLED_BECAUSE = { gone: 'Disabled: it answered 410 Gone', failing: 'Disabled: every attempt failed for 5 days' } as const;

function lastDay({ last24h }: WebhookEndpoint) {
  if (last24h.attempted === 0) return 'No messages in 24 h';
  return `${Math.round((last24h.successRate ?? 0) * 100)}% of ${last24h.attempted} delivered in 24 h`;
}

/** The endpoint form (Add and Edit): URL, description, all types or chosen ones, active (Edit). */
function EndpointForm({
  endpoint,
  eventTypes,
  onClose,
  onCreated,
}: {
  endpoint: WebhookEndpoint | null;
  eventTypes: string[];
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const queryClient = useQueryClient();
  const handleError = useStaffErrorHandler();
  const toast = useToast();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [all, setAll] = useState(endpoint ? endpoint.eventTypes === null : true);
  const [chosen, setChosen] = useState<string[]>(endpoint?.eventTypes ?? []);
  const [active, setActive] = useState(endpoint?.active ?? true);
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);

  const save = useMutation({
    mutationFn: async () => {
      const body = { url, description, eventTypes: all ? null : chosen, active } as WebhookEndpointInput;
      if (endpoint) return staffRequest(`${WEBHOOKS_API}${endpoint.id}`, { method: 'PUT', body, schema: z.unknown() });
      const { data } = await staffRequest(WEBHOOKS_API, { method: 'POST', body, schema: webhookEndpointWithSecret });
      onCreated(data.secret);
    },
    onSuccess: async () => {
      if (endpoint) toast('Webhooks: endpoint saved.', 'success');
      await queryClient.invalidateQueries({ queryKey: KEY });
      onClose();
    },
    onError: (error) => {
      const message = handleError(error);
      const field = (error as { body?: { fields?: { path: string }[] } }).body?.fields?.[0]?.path ?? null;
      if (message) setProblem({ field, message });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    save.mutate();
  };
  const fieldError = (field: string) => (problem?.field === field ? problem.message : null);

  return (
    <Modal show onHide={onClose} aria-labelledby="webhook-form-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="webhook-form-title">{endpoint ? 'Edit endpoint' : 'Add endpoint'}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId="webhook-url">
            <Form.Label>URL</Form.Label>
            <Form.Control
              type="url"
              value={url}
              required
              placeholder="https://crm.example.com/hooks/boardwalk"
              isInvalid={!!fieldError('url')}
              aria-describedby="webhook-url-error"
              onChange={(e) => setUrl(e.target.value)}
            />
            <Form.Control.Feedback type="invalid" id="webhook-url-error">
              {fieldError('url')}
            </Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId="webhook-description">
            <Form.Label>Description</Form.Label>
            <Form.Control value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
          </Form.Group>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Event types</legend>
            <Form.Check
              id="webhook-all-types"
              label="All event types (and types added later)"
              checked={all}
              onChange={(e) => setAll(e.target.checked)}
            />
            {all ? null : (
              <div className="staff-webhook-types mt-2">
                {eventTypes.map((type) => (
                  <Form.Check
                    key={type}
                    id={`webhook-type-${type}`}
                    label={type}
                    checked={chosen.includes(type)}
                    onChange={(e) => setChosen(e.target.checked ? [...chosen, type] : chosen.filter((t) => t !== type))}
                  />
                ))}
              </div>
            )}
            {fieldError('eventTypes') ? <div className="text-danger small mt-1">{fieldError('eventTypes')}</div> : null}
          </fieldset>
          {endpoint ? (
            <Form.Check id="webhook-active" label="Active" checked={active} onChange={(e) => setActive(e.target.checked)} />
          ) : null}
          {problem && !['url', 'eventTypes'].includes(problem.field ?? '') ? (
            <Alert variant="danger" className="mt-3 mb-0 py-2">
              {problem.message}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton type="submit" busy={save.isPending} busyLabel="Saving…">
            {endpoint ? 'Save' : 'Add endpoint'}
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** The signing secret, shown once (kept in this modal's state only). */
function SecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Modal show onHide={onClose} aria-labelledby="webhook-secret-title">
      <Modal.Header closeButton>
        <Modal.Title id="webhook-secret-title">Signing secret</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          Copy this secret now: it is shown only once. Your receiver verifies each delivery’s <code>webhook-signature</code> with it
          (Standard Webhooks).
        </p>
        <Form.Group controlId="webhook-secret">
          <Form.Label>Secret</Form.Label>
          <Form.Control readOnly value={secret} className="font-monospace" onFocus={(e) => e.target.select()} />
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button
          variant="outline-primary"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button onClick={onClose}>Done</Button>
      </Modal.Footer>
    </Modal>
  );
}

/** The chosen endpoint's latest messages, with Resend on a dead one. */
function Messages({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { data } = useQuery(messagesQuery(endpoint.id));
  const queryClient = useQueryClient();
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  const resend = useMutation({
    mutationFn: (id: string) => staffRequest(`${WEBHOOKS_API}messages/${id}/resend`, { method: 'POST', schema: z.unknown() }),
    onSuccess: async () => {
      toast('Webhooks: message queued again.', 'success');
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => {
      const message = handleError(error);
      if (message) toast(message, 'danger');
    },
  });
  return (
    <section aria-labelledby="webhook-messages-heading" className="mt-4">
      <h3 id="webhook-messages-heading" className="h6">
        Latest messages to {endpoint.description || endpoint.url}
      </h3>
      {!data ? (
        <p>Loading…</p>
      ) : data.messages.length === 0 ? (
        <p className="text-body-secondary">No messages yet.</p>
      ) : (
        <ScrollRegion label="Latest messages">
          <Table size="sm" striped className="mb-0 align-middle">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last status</th>
                <th scope="col">Latency</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Last error</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.messages.map((m) => (
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
                  <td className="small">{m.lastError ? (m.lastError.length > 80 ? `${m.lastError.slice(0, 80)}…` : m.lastError) : '–'}</td>
                  <td>
                    {m.state === 'dead' ? (
                      <Button size="sm" variant="outline-primary" disabled={resend.isPending} onClick={() => resend.mutate(m.id)}>
                        Resend
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollRegion>
      )}
    </section>
  );
}

type Dialog =
  | { kind: 'form'; endpoint: WebhookEndpoint | null }
  | { kind: 'secret'; secret: string }
  | { kind: 'confirm'; action: 'rotate' | 'delete'; endpoint: WebhookEndpoint };

export function WebhooksPage() {
  const { data, isPending } = useQuery(endpointsQuery);
  const queryClient = useQueryClient();
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const onError = (error: unknown) => {
    const message = handleError(error);
    if (message) toast(message, 'danger');
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });

  const test = useMutation({
    mutationFn: (id: string) => staffRequest(`${WEBHOOKS_API}${id}/test`, { method: 'POST', schema: z.unknown() }),
    onSuccess: async (_answer, id) => {
      setSelectedId(id);
      toast('Webhooks: test event queued.', 'success');
      await refresh();
    },
    onError,
  });
  const confirm = useMutation({
    mutationFn: async ({ action, endpoint }: { action: 'rotate' | 'delete'; endpoint: WebhookEndpoint }) => {
      if (action === 'delete') {
        await staffRequest(`${WEBHOOKS_API}${endpoint.id}`, { method: 'DELETE', schema: z.unknown() });
        return null;
      }
      return (await staffRequest(`${WEBHOOKS_API}${endpoint.id}/rotate`, { method: 'POST', schema: webhookEndpointWithSecret })).data
        .secret;
    },
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
      {isPending ? (
        <p>Loading…</p>
      ) : endpoints.length === 0 ? (
        <p className="text-body-secondary">No webhook endpoints yet. Add one to send events to your CRM.</p>
      ) : (
        <ul className="list-unstyled staff-webhook-endpoints" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className={`border rounded p-3 mb-2${endpoint.id === selectedId ? ' border-primary' : ''}`}>
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
                <Button
                  size="sm"
                  variant="outline-primary"
                  aria-pressed={endpoint.id === selectedId}
                  onClick={() => setSelectedId(endpoint.id)}
                >
                  Messages
                </Button>
                <Button
                  size="sm"
                  variant="outline-primary"
                  disabled={!endpoint.active || test.isPending}
                  onClick={() => test.mutate(endpoint.id)}
                >
                  Send test event
                </Button>
                <Button size="sm" variant="outline-secondary" onClick={() => setDialog({ kind: 'form', endpoint })}>
                  Edit
                </Button>
                <Button size="sm" variant="outline-secondary" onClick={() => setDialog({ kind: 'confirm', action: 'rotate', endpoint })}>
                  Rotate secret
                </Button>
                <Button size="sm" variant="outline-danger" onClick={() => setDialog({ kind: 'confirm', action: 'delete', endpoint })}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {selected ? <Messages endpoint={selected} /> : null}

      {dialog?.kind === 'form' ? (
        <EndpointForm
          endpoint={dialog.endpoint}
          eventTypes={data?.eventTypes ?? []}
          onClose={() => setDialog((d) => (d?.kind === 'form' ? null : d))}
          onCreated={(secret) => setDialog({ kind: 'secret', secret })}
        />
      ) : null}
      {dialog?.kind === 'secret' ? <SecretModal secret={dialog.secret} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'confirm' ? (
        <Modal show onHide={() => setDialog(null)} aria-labelledby="webhook-confirm-title">
          <Modal.Header closeButton>
            <Modal.Title id="webhook-confirm-title">
              {dialog.action === 'rotate' ? 'Rotate the secret?' : 'Delete the endpoint?'}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            {dialog.action === 'rotate'
              ? 'A new secret is made and shown once. For 24 hours each delivery carries both signatures, so the receiver can change over.'
              : `No more events go to ${dialog.endpoint.url}; its messages are deleted.`}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <BusyButton
              variant={dialog.action === 'rotate' ? 'primary' : 'danger'}
              busy={confirm.isPending}
              busyLabel="Working…"
              onClick={() => confirm.mutate({ action: dialog.action, endpoint: dialog.endpoint })}
            >
              {dialog.action === 'rotate' ? 'Rotate secret' : 'Delete'}
            </BusyButton>
          </Modal.Footer>
        </Modal>
      ) : null}
    </section>
  );
}
