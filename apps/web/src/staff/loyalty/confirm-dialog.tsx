import { ConfirmModal } from '../resources/confirm-modal.tsx';

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
    <ConfirmModal
      id="loyalty-confirm-title"
      title={title}
      busy={busy}
      busyLabel={busyLabel}
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
      onClose={onCancel}
    >
      <p className="mb-0">{children}</p>
    </ConfirmModal>
  );
}
