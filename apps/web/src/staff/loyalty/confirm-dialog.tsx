import type { ComponentProps } from 'react';
import { ConfirmModal } from '../resources/confirm-modal.tsx';

/** Asks before a removal or reversal (an account, an order, a redemption); closes only when none is under way. */
export function ConfirmDialog({
  children,
  busyLabel = 'Removing...',
  onCancel,
  ...modal
}: Omit<ComponentProps<typeof ConfirmModal>, 'id' | 'message' | 'onClose'> & { onCancel: () => void }) {
  return (
    <ConfirmModal id="loyalty-confirm-title" busyLabel={busyLabel} onClose={onCancel} {...modal}>
      <p className="mb-0">{children}</p>
    </ConfirmModal>
  );
}
