// Asks before a change that cannot be undone (erase, deactivate, remove, reverse): the title,
// what the change does, Cancel and the danger button. It closes only when no change is under
// way; a failure the member should read (a 409, a 404) shows above the text.
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from '../../ui/busy-button.tsx';

export function ConfirmModal({
  id,
  title,
  busy,
  busyLabel,
  confirmLabel,
  message,
  onConfirm,
  onClose,
  children,
}: {
  /** The title's id, which names the dialog. */
  id: string;
  title: string;
  busy: boolean;
  /** The danger button's words while the change runs (its own words when not given). */
  busyLabel?: string;
  confirmLabel: string;
  /** The failure to show in the dialog's alert region; undefined when the dialog has none. */
  message?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal show onHide={() => !busy && onClose()} aria-labelledby={id} className="staff-modal">
      <Modal.Header>
        <Modal.Title id={id} as="h2" className="h5">
          {title}
        </Modal.Title>
        <button type="button" className="btn-close" aria-label="Close" onClick={onClose} disabled={busy} />
      </Modal.Header>
      <Modal.Body>
        {message === undefined ? null : (
          <div role="alert" aria-atomic="true">
            {message ? <div className="alert alert-danger">{message}</div> : null}
          </div>
        )}
        {children}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <BusyButton variant="danger" busy={busy} busyLabel={busyLabel ?? confirmLabel} onClick={onConfirm}>
          {confirmLabel}
        </BusyButton>
      </Modal.Footer>
    </Modal>
  );
}
