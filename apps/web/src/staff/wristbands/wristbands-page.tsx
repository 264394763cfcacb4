// The Wristbands tab: the bands guests bound to their tickets (the generic read-only list,
// searchable by band or ticket) with a Deactivate button on each active one for members
// holding `Wristbands Deactivate`. After a confirmation the band is deactivated (audited): its
// ticket may activate a new band, and this band never binds again.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { staffRow } from '@boardwalk/contract/staff-tabs';
import { WRISTBAND_DEACTIVATE, wristbandBindings as resource } from '@boardwalk/contract/staff-wristband-tabs';
import { useToast } from '../../ui/toasts.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';
import { ResourceList } from '../resources/resource-list.tsx';
import { ConfirmModal } from '../resources/confirm-modal.tsx';
import type { Row } from '../resources/resource-api.ts';

export function WristbandsPage({ user }: { user: StaffUser }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const handleError = useStaffErrorHandler();
  const [confirming, setConfirming] = useState<Row | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const deactivate = useMutation({
    mutationFn: (id: string) => staffRequest(`${WRISTBAND_DEACTIVATE.api}${encodeURIComponent(id)}`, { method: 'POST', schema: staffRow }),
    onSuccess: async ({ data }) => {
      toast(`Wristbands: wristband ${String(data.wristbandBarcode)} deactivated.`, 'success');
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: [STAFF_QUERY_KEY, resource.key] });
    },
    // A 409 (deactivated meanwhile) or 404 is said in the dialog; everything else the handler toasts itself.
    onError: (error) => setMessage(handleError(error)),
  });
  const canDeactivate = hasPermission(user, WRISTBAND_DEACTIVATE);
  const close = () => {
    if (deactivate.isPending) return;
    setConfirming(null);
    setMessage(null);
  };

  return (
    <>
      <ResourceList
        resource={resource}
        user={user}
        rowActions={
          canDeactivate
            ? (row) =>
                row.wristbandDeactivatedAt ? null : (
                  <Button size="sm" variant="outline-danger" onClick={() => setConfirming(row)}>
                    Deactivate
                  </Button>
                )
            : undefined
        }
      />
      {confirming ? (
        <ConfirmModal
          id="wristband-deactivate-title"
          title="Deactivate Wristband"
          busy={deactivate.isPending}
          confirmLabel="Yes, Deactivate"
          message={message}
          onConfirm={() => {
            setMessage(null);
            deactivate.mutate(String(confirming[resource.idField]));
          }}
          onClose={close}
        >
          <p>
            Deactivate wristband <strong className="text-nowrap">{String(confirming.wristbandBarcode)}</strong> of ticket{' '}
            <strong className="text-nowrap">{String(confirming.wristbandTicketBarcode)}</strong>?
          </p>
          <p className="mb-0">
            The gates will no longer admit this wristband and it can never be activated again. The guest can then activate a new wristband
            for the ticket.
          </p>
        </ConfirmModal>
      ) : null}
    </>
  );
}
