// The Webhooks tab's two small modals: the signing secret, shown once (kept in the modal's
// state only), and the confirmation of a rotation or a deletion.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from '../../ui/busy-button.tsx';
import type { EndpointChange } from './webhooks-api.ts';

export function SecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
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

export function ConfirmChangeModal({
  change,
  busy,
  onConfirm,
  onClose,
}: {
  change: EndpointChange;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const rotate = change.action === 'rotate';
  return (
    <Modal show onHide={onClose} aria-labelledby="webhook-confirm-title">
      <Modal.Header closeButton>
        <Modal.Title id="webhook-confirm-title">{rotate ? 'Rotate the secret?' : 'Delete the endpoint?'}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {rotate
          ? 'A new secret is made and shown once. For 24 hours each delivery carries both signatures, so the receiver can change over.'
          : `No more events go to ${change.endpoint.url}; its messages are deleted.`}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <BusyButton variant={rotate ? 'primary' : 'danger'} busy={busy} busyLabel="Working…" onClick={onConfirm}>
          {rotate ? 'Rotate secret' : 'Delete'}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
