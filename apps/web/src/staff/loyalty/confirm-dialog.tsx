import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from '../../ui/busy-button.tsx';

/** Asks before a removal or reversal (an account, an order, a redemption); closes only when none is under way. */
export function ConfirmDialog({
  title,
  children,
  busy,
  busyLabel = 'Removing...',
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: React.ReactNode;
  busy: boolean;
  busyLabel?: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show onHide={() => !busy && onCancel()} aria-labelledby="loyalty-confirm-title" className="staff-modal">
      <Modal.Header>
        <Modal.Title id="loyalty-confirm-title" as="h2" className="h5">
          {title}
        </Modal.Title>
        <button type="button" className="btn-close" aria-label="Close" onClick={onCancel} disabled={busy} />
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{children}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <BusyButton variant="danger" busy={busy} busyLabel={busyLabel} onClick={onConfirm}>
          {confirmLabel}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
