// The member's claimed orders, newest first, each ticket's pass in the wallets (Apple devices
// registered, Google saved or deleted), with Remove Order for members holding Loyalty
// Remove Order (the order's points leave the balance).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Button from 'react-bootstrap/Button';
import { staffLoyaltyMessages as texts, type StaffLoyaltyOrder } from '@boardwalk/contract/staff-loyalty';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { useToast } from '../../ui/toasts.tsx';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { accountQuery, api, id, loyaltyJson, ordersQuery } from './loyalty-api.ts';
import { useLoyaltyFailure, useToastOnError } from './loyalty-errors.ts';
import { ListStates, StaffTable } from '../resources/staff-table.tsx';
import { appleDevicesText, googleText } from './wallet-presence.tsx';

/** Order dates as M/D/YY. */
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'numeric', day: 'numeric', year: '2-digit' });
const TYPE_LABELS: Record<StaffLoyaltyOrder['type'], string> = { ticket: 'Ticket', 'food-and-beverage': 'Food & Beverage', hotel: 'Hotel' };

function useRemoveOrder(userID: string, email: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: (o: StaffLoyaltyOrder) => loyaltyJson(`${api}order/${id(userID)}/${id(o.id)}/${id(o.barcode)}`, z.unknown(), 'DELETE'),
    onSuccess: () => {
      toast(texts.orderRemoved, 'success');
      void queryClient.invalidateQueries({ queryKey: ordersQuery(userID, email).queryKey });
      void queryClient.invalidateQueries({ queryKey: accountQuery(userID).queryKey });
    },
    onError: (error) => fail(error, texts.unableToRemove),
  });
}

export function LoyaltyOrders({ user, userID, email }: { user: StaffUser; userID: string; email: string }) {
  const orders = useQuery(ordersQuery(userID, email));
  useToastOnError(orders.error, texts.unableToLoadOrders);
  const [confirming, setConfirming] = useState<StaffLoyaltyOrder | null>(null);
  const remove = useRemoveOrder(userID, email);
  const canRemove = hasPermission(user, LOYALTY.removeOrder);
  const rows = orders.data;
  return (
    <section className="mt-4" aria-labelledby="loyalty-orders-heading">
      <h3 id="loyalty-orders-heading" className="h5">
        Orders
      </h3>
      <ListStates pending={orders.isPending} empty={!rows || rows.length === 0} loading="Loading Orders..." none="No Orders">
        <StaffTable
          label="Loyalty orders"
          columns={['Order ID / Check #', 'Barcode / Check ID', 'Product', 'Order Date', 'Type', 'Apple Wallet', 'Google Wallet']}
          actions={canRemove}
          className="align-middle mb-0 staff-loyalty__orders"
        >
          {rows?.map((o) => (
            <tr key={`${o.type}:${o.barcode}`}>
              <td className="text-nowrap">{o.id}</td>
              <td className="staff-loyalty__mono text-nowrap">{o.barcode}</td>
              <td>{o.product}</td>
              <td>{shortDate.format(new Date(o.timestamp))}</td>
              <td className="text-nowrap">{TYPE_LABELS[o.type]}</td>
              <td className="text-nowrap">{o.wallets ? appleDevicesText(o.wallets) : '—'}</td>
              <td className="text-nowrap">{o.wallets ? googleText(o.wallets) : '—'}</td>
              {canRemove ? (
                <td>
                  <Button size="sm" variant="outline-danger" className="text-nowrap" onClick={() => setConfirming(o)}>
                    Remove Order
                  </Button>
                </td>
              ) : null}
            </tr>
          ))}
        </StaffTable>
      </ListStates>
      {confirming ? (
        <ConfirmDialog
          title="Remove Order"
          busy={remove.isPending}
          confirmLabel="Remove Order"
          onConfirm={() => remove.mutate(confirming, { onSettled: () => setConfirming(null) })}
          onCancel={() => setConfirming(null)}
        >
          {texts.removeOrderConfirm}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
