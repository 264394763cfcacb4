// The balance is the sum of the ledger, shown with each entry's reason; Loyalty Manage may
// adjust it by a whole number of points with a required reason.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Form from 'react-bootstrap/Form';
import { staffLoyaltyMessages as texts } from '@boardwalk/contract/staff-loyalty';
import { formatDateTime } from '../../lib/format.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { accountQuery, api, loyaltyJson, type LoyaltyAccountData } from './loyalty-api.ts';
import { useLoyaltyFailure } from './loyalty-errors.ts';
import { StaffTable } from '../resources/staff-table.tsx';

const CAUSED_BY = { guest: 'Guest', system: 'System', staff: 'Staff', till: 'Till' } as const;

function useAdjustPoints(userID: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: ({ points, reason }: { points: number; reason: string }) =>
      loyaltyJson(`${api}adjust/`, z.object({ balance: z.number() }), 'POST', { userID, points, reason }),
    onSuccess: ({ balance }) => {
      toast(`Points adjusted. The balance is now ${balance.toLocaleString('en-US')}.`, 'success');
      void queryClient.invalidateQueries({ queryKey: accountQuery(userID).queryKey });
    },
    onError: (error) => fail(error, texts.unableToSubmit),
  });
}

export function LoyaltyPoints({ userID, account }: { userID: string; account: LoyaltyAccountData | undefined }) {
  const [points, setPoints] = useState('');
  const [reason, setReason] = useState('');
  const amount = Number(points);
  const validAmount = /^-?\d+$/.test(points.trim()) && amount !== 0;
  const adjust = useAdjustPoints(userID);
  const cleared = () => {
    setPoints('');
    setReason('');
  };
  return (
    <section className="mt-4" aria-labelledby="loyalty-points-heading">
      <h3 id="loyalty-points-heading" className="h5">
        Points{' '}
        {account ? (
          <span
            className={account.balance < 0 ? 'staff-loyalty__balance text-danger' : 'staff-loyalty__balance'}
            data-testid="loyalty-balance"
          >
            {account.balance.toLocaleString('en-US')}
            {/* A reversal may leave the balance below zero: said in words, not by colour alone. */}
            {account.balance < 0 ? ' (below zero)' : null}
          </span>
        ) : null}
      </h3>
      <Form
        noValidate
        className="staff-loyalty__panel staff-loyalty__adjust"
        aria-label="Adjust points"
        onSubmit={(event) => {
          event.preventDefault();
          if (validAmount && reason.trim()) adjust.mutate({ points: amount, reason: reason.trim() }, { onSuccess: cleared });
        }}
      >
        <TextField
          id="loyalty-adjust-points"
          label="Points"
          hint="e.g. 50 or -20"
          inputMode="numeric"
          autoComplete="off"
          value={points}
          onChange={(e) => setPoints(e.target.value)}
        />
        <TextField
          id="loyalty-adjust-reason"
          label="Reason"
          hint="Shown in the ledger"
          autoComplete="off"
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <BusyButton
          type="submit"
          variant="outline-primary"
          disabled={!validAmount || !reason.trim()}
          busy={adjust.isPending}
          busyLabel="Adjusting..."
        >
          Adjust Points
        </BusyButton>
      </Form>
      {account && account.ledger.length > 0 ? (
        <StaffTable
          label="Points ledger"
          caption="Points ledger, newest first"
          columns={['When', { label: 'Points', className: 'text-end' }, 'Reason', 'Order', 'By']}
          className="align-middle mb-0 staff-loyalty__ledger"
          regionClassName="mt-3"
        >
          {account.ledger.map((e) => (
            <tr key={e.id}>
              <td className="text-nowrap">{formatDateTime(e.createdAt)}</td>
              <td className="text-end text-nowrap">
                {e.points > 0 ? `+${e.points.toLocaleString('en-US')}` : e.points.toLocaleString('en-US')}
              </td>
              <td>{e.reason}</td>
              <td className="text-nowrap">{e.reference ?? ''}</td>
              <td className="text-nowrap">{e.staffMember ?? CAUSED_BY[e.causedBy]}</td>
            </tr>
          ))}
        </StaffTable>
      ) : account ? (
        <p className="mt-3">No points yet.</p>
      ) : null}
    </section>
  );
}
