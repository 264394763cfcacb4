// The endpoint form in a modal (Add and Edit): URL, description, all event types or chosen
// ones, and Active (Edit only). A new endpoint's signing secret goes to onCreated, to be shown once.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { WebhookEndpoint, WebhookEndpointInput } from '@boardwalk/contract/webhooks';
import { BusyButton } from '../../ui/busy-button.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { saveEndpoint, useRefreshWebhooks } from './webhooks-api.ts';

/** The fields a problem is shown under; any other problem is shown below the form. */
const FIELDS_WITH_ERRORS = ['url', 'eventTypes'];

export function WebhookEndpointForm({
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
  const refresh = useRefreshWebhooks();
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
      const secret = await saveEndpoint(endpoint, body);
      if (secret) onCreated(secret);
    },
    onSuccess: async () => {
      if (endpoint) toast('Webhooks: endpoint saved.', 'success');
      await refresh();
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
          {problem && !FIELDS_WITH_ERRORS.includes(problem.field ?? '') ? (
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
