// The member's rewards: members holding Loyalty Redeem redeem one for the member (only the
// rewards the member can redeem now are offered), and reverse a redemption (a till's or staff's)
// after a confirmation; everyone with the tab sees the redemptions. The form sends the key the
// server handed out with the list, so a double submit spends once; each answer brings a new key.
import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  staffLoyaltyMessages as texts,
  staffRedeemResult,
  staffRedemptions,
  staffReverseResult,
  type StaffRedemption,
} from '@boardwalk/contract/staff-loyalty';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { formatDateTime } from '../../lib/format.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { accountQuery, api, id, loyaltyJson, memberKey } from './loyalty-api.ts';
import { useLoyaltyFailure, useToastOnError } from './loyalty-errors.ts';
import { ListStates, StaffTable } from '../resources/staff-table.tsx';

const redemptionsQuery = (userID: string) =>
  queryOptions({
    queryKey: [...memberKey(userID), 'redemptions'],
    queryFn: () => loyaltyJson(`${api}redemptions/${id(userID)}/`, staffRedemptions),
    retry: false,
  });

const points = (n: number) => n.toLocaleString('en-US');

/** A redemption or reversal changes the balance, the ledger, the redemptions and what can be redeemed. */
function useRedemptionChange<T, R>(userID: string, change: (value: T) => Promise<R>, done: (answer: R) => string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer) => toast(done(answer), 'success'),
    onError: (error) => fail(error, texts.unableToSubmit),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: redemptionsQuery(userID).queryKey }),
        queryClient.invalidateQueries({ queryKey: accountQuery(userID).queryKey }),
      ]),
  });
}

export function LoyaltyRedemptions({ user, userID }: { user: StaffUser; userID: string }) {
  const list = useQuery(redemptionsQuery(userID));
  useToastOnError(list.error, texts.unableToSubmit);
  const canRedeem = hasPermission(user, LOYALTY.redeem);
  const [rewardId, setRewardId] = useState('');
  const [confirming, setConfirming] = useState<StaffRedemption | null>(null);
  const redeem = useRedemptionChange(
    userID,
    (body: { rewardId: string; idempotencyKey: string }) =>
      loyaltyJson(`${api}redemptions/`, staffRedeemResult, 'POST', { userID, ...body }),
    (answer) => texts.redeemed(answer.rewardName, answer.balance),
  );
  const reverse = useRedemptionChange(
    userID,
    (redemptionId: string) => loyaltyJson(`${api}redemptions/reverse/`, staffReverseResult, 'POST', { userID, redemptionId }),
    (answer) => texts.redemptionReversed(answer.pointsReturned),
  );
  const data = list.data;
  // A choice no longer offered (after a redemption or a change of the balance) is dropped.
  const chosen = data?.rewards.some((r) => r.rewardId === rewardId) ? rewardId : '';

  return (
    <section className="mt-4" aria-labelledby="loyalty-rewards-heading">
      <h3 id="loyalty-rewards-heading" className="h5">
        Rewards
      </h3>
      {canRedeem ? (
        <Form
          noValidate
          className="staff-loyalty__panel staff-loyalty__redeem mb-3"
          aria-label="Redeem a reward"
          onSubmit={(event) => {
            event.preventDefault();
            if (data && chosen)
              redeem.mutate({ rewardId: chosen, idempotencyKey: data.idempotencyKey }, { onSuccess: () => setRewardId('') });
          }}
        >
          <Form.Group controlId="loyalty-redeem-reward">
            <Form.Label>Reward</Form.Label>
            <Form.Select
              value={chosen}
              disabled={!data || data.rewards.length === 0}
              aria-describedby="loyalty-redeem-hint"
              onChange={(e) => setRewardId(e.target.value)}
            >
              <option value="">{data && data.rewards.length === 0 ? 'Nothing to redeem now' : 'Choose a reward'}</option>
              {data?.rewards.map((r) => (
                <option key={r.rewardId} value={r.rewardId}>
                  {r.name} ({points(r.pointsCost)} points)
                </option>
              ))}
            </Form.Select>
            <Form.Text id="loyalty-redeem-hint">Only the rewards this member can redeem now are listed.</Form.Text>
          </Form.Group>
          <BusyButton type="submit" disabled={!chosen || list.isFetching} busy={redeem.isPending} busyLabel="Redeeming...">
            Redeem
          </BusyButton>
        </Form>
      ) : null}
      <ListStates
        pending={list.isPending}
        empty={!data || data.redemptions.length === 0}
        loading="Loading Redemptions..."
        none="No Redemptions"
      >
        <StaffTable
          label="Redemptions"
          caption="Redemptions, newest first"
          columns={['Redeemed', 'Reward', { label: 'Points', className: 'text-end' }, 'By', 'Status']}
          className="align-middle mb-0 staff-loyalty__redemptions"
        >
          {data?.redemptions.map((r) => (
            <tr key={r.redemptionId}>
              <td className="text-nowrap">{formatDateTime(r.redeemedAt)}</td>
              <td>{r.rewardName}</td>
              <td className="text-end text-nowrap">-{points(r.pointsSpent)}</td>
              <td className="text-nowrap">{r.staffMember ?? 'Till'}</td>
              <td className="text-nowrap">
                {r.reversedAt ? (
                  `Reversed ${formatDateTime(r.reversedAt)}`
                ) : canRedeem ? (
                  <Button size="sm" variant="outline-danger" onClick={() => setConfirming(r)}>
                    Reverse
                  </Button>
                ) : (
                  'Redeemed'
                )}
              </td>
            </tr>
          ))}
        </StaffTable>
      </ListStates>
      {confirming ? (
        <ConfirmDialog
          title="Reverse Redemption"
          busy={reverse.isPending}
          busyLabel="Reversing..."
          confirmLabel="Reverse Redemption"
          onConfirm={() => reverse.mutate(confirming.redemptionId, { onSettled: () => setConfirming(null) })}
          onCancel={() => setConfirming(null)}
        >
          This gives the member back the {points(confirming.pointsSpent)} points spent on <strong>{confirming.rewardName}</strong>. Are you
          sure you wish to proceed?
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
