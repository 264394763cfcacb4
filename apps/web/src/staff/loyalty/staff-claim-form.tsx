// Adding a purchase on the member's behalf (admin mode): Tickets, Food & Beverage and Hotel
// Reservations, each the shared claim form in a panel. A 400 shows the server's text in red;
// 401 and 403 go to the staff handler; other failures show the support text.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Button from 'react-bootstrap/Button';
import { checkCandidates } from '@boardwalk/contract/loyalty';
import { staffClaimResult, staffLoyaltyMessages as texts } from '@boardwalk/contract/staff-loyalty';
import { failedWith } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { ClaimForm, type CandidatesProps, type ScanTexts } from '../../loyalty/claim-form.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { accountQuery, api, loyaltyJson, ordersQuery } from './loyalty-api.ts';
import { StaffTable } from '../resources/staff-table.tsx';

export type StaffClaimKind = 'tickets' | 'purchase' | 'hotels';

const CLAIMS: Record<StaffClaimKind, { title: string; label: string; field: string; scan?: ScanTexts }> = {
  tickets: { title: 'Tickets', label: 'Order ID or Invoice Number', field: 'orderId' },
  purchase: {
    title: 'Food & Beverage',
    label: 'Check Number',
    field: 'checkNumber',
    scan: {
      title: 'Scan your check number',
      button: 'Scan Barcode',
      hint: 'Hold the barcode inside the frame. You can also type the number instead.',
      close: 'Close',
    },
  },
  hotels: { title: 'Hotel Reservations', label: 'Reservation Number', field: 'reservationNumber' },
};

const claimAnswer = z.union([staffClaimResult, checkCandidates]);

/** POST /api/admin/loyalty/{kind}/: the claim's result, or (food and beverage) the candidate checks. */
function useStaffClaim(kind: StaffClaimKind, userID: string, email: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: Record<string, string>) => loyaltyJson(`${api}${kind}/`, claimAnswer, 'POST', { ...body, email, userID }),
    onSuccess: (answer) => {
      if (Array.isArray(answer)) return;
      toast(`${CLAIMS[kind].title}: added, +${answer.pointsEarned.toLocaleString('en-US')} points.`, 'success');
      void queryClient.invalidateQueries({ queryKey: accountQuery(userID).queryKey });
      void queryClient.invalidateQueries({ queryKey: ordersQuery(userID, email).queryKey });
    },
  });
}

export function StaffClaimForm({ kind, userID, email }: { kind: StaffClaimKind; userID: string; email: string }) {
  const { title, label, field, scan } = CLAIMS[kind];
  const handleError = useStaffErrorHandler();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const [message, setMessage] = useState<string | null>(null);
  const claim = useStaffClaim(kind, userID, email);
  const send = async (value: string, checkID?: string) => {
    try {
      const answer = await claim.mutateAsync({ [field]: value, ...(checkID && { checkID }) });
      return Array.isArray(answer) ? answer : null;
    } catch (error) {
      if (failedWith(error, 'UNAUTHORIZED', 'FORBIDDEN')) handleError(error);
      else setMessage(failedWith(error, 'VALIDATION_FAILED') && error.body?.message ? error.body.message : texts.claimFailed(supportEmail));
      throw error;
    }
  };
  const id = `loyalty-claim-${kind}`;
  return (
    <ClaimForm
      id={id}
      label={label}
      scan={scan}
      claim={send}
      busy={claim.isPending}
      submit={{ label: 'Add', busyLabel: 'Adding...' }}
      scanPlacement="actions"
      Candidates={Candidates}
      onSubmit={() => setMessage(null)}
      className="staff-loyalty__panel"
      aria-labelledby={`${id}-heading`}
    >
      <h4 id={`${id}-heading`} className="h6">
        {title}
      </h4>
      <div role="alert" aria-atomic="true">
        {message ? <p className="text-danger fw-semibold mb-2">{message}</p> : null}
      </div>
    </ClaimForm>
  );
}

function Candidates({ candidates, busy, onAdd }: CandidatesProps) {
  return (
    <div className="mt-3">
      <p className="mb-2">Several checks have this number:</p>
      <StaffTable label="Checks with this number" columns={['Order Date', 'Terminal']} actions>
        {candidates.map((c) => (
          <tr key={c.checkID}>
            <td>{formatDateTime(c.ORDER_DATE)}</td>
            <td>{c.TERMINAL_ID}</td>
            <td>
              <Button size="sm" variant="outline-primary" disabled={busy || c.IN_LOYALTY_ORDERS} onClick={() => onAdd(c.checkID)}>
                {c.IN_LOYALTY_ORDERS ? 'Added' : 'Add'}
              </Button>
            </td>
          </tr>
        ))}
      </StaffTable>
    </div>
  );
}
