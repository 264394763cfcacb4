// The member's lots, newest first: the points each positive entry gave, what is left of them
// and when they expire (or expired). The query sits under the account's key, so every change
// of points (each invalidates the account) refreshes it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { staffLoyaltyMessages as texts, staffLots } from '@boardwalk/contract/staff-loyalty';
import { formatDate } from '../../lib/format.ts';
import { accountQuery, api, id, loyaltyJson } from './loyalty-api.ts';
import { useToastOnError } from './loyalty-errors.ts';
import { ListStates, StaffTable } from '../resources/staff-table.tsx';

const lotsQuery = (userID: string) =>
  queryOptions({
    queryKey: [...accountQuery(userID).queryKey, 'lots'],
    queryFn: () => loyaltyJson(`${api}lots/${id(userID)}/`, staffLots),
    retry: false,
  });

const points = (n: number) => n.toLocaleString('en-US');

export function LoyaltyLots({ userID }: { userID: string }) {
  const lots = useQuery(lotsQuery(userID));
  useToastOnError(lots.error, texts.unableToSubmit);
  const rows = lots.data;
  return (
    <section className="mt-4" aria-labelledby="loyalty-lots-heading">
      <h3 id="loyalty-lots-heading" className="h5">
        Points by Expiry
      </h3>
      <ListStates pending={lots.isPending} empty={!rows || rows.length === 0} loading="Loading Points..." none="No points earned yet.">
        <StaffTable
          label="Lots: points left and their expiry"
          caption="Points by the entry that gave them, newest first"
          columns={['Earned', 'Reason', { label: 'Points', className: 'text-end' }, { label: 'Left', className: 'text-end' }, 'Expires']}
          className="align-middle mb-0 staff-loyalty__lots"
        >
          {rows?.map((lot) => (
            <tr key={lot.lotId}>
              <td className="text-nowrap">{formatDate(lot.earnedAt)}</td>
              <td>{lot.reason}</td>
              <td className="text-end text-nowrap">{points(lot.points)}</td>
              <td className="text-end text-nowrap">{points(lot.remaining)}</td>
              <td className="text-nowrap">
                {!lot.expiresAt
                  ? 'Never'
                  : lot.expired
                    ? `Expired ${formatDate(lot.expiresAt)} (${points(lot.expiredPoints)} points)`
                    : formatDate(lot.expiresAt)}
              </td>
            </tr>
          ))}
        </StaffTable>
      </ListStates>
    </section>
  );
}
