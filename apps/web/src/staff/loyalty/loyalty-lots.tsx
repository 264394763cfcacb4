// The member's lots, newest first: the points each positive entry gave, what is left of them
// and when they expire (or expired). The query sits under the account's key, so every change
// of points (each invalidates the account) refreshes it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import Table from 'react-bootstrap/Table';
import { staffLoyaltyMessages as texts, staffLots } from '@boardwalk/contract/staff-loyalty';
import { formatDate } from '../../lib/format.ts';
import { accountQuery, api, id, loyaltyJson } from './loyalty-api.ts';
import { useToastOnError } from './loyalty-errors.ts';
import { ScrollRegion } from '../resources/scroll-region.tsx';

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
      {lots.isPending ? (
        <p role="status">Loading Points...</p>
      ) : !rows || rows.length === 0 ? (
        <p>No points earned yet.</p>
      ) : (
        <ScrollRegion label="Lots: points left and their expiry">
          <Table size="sm" className="align-middle mb-0 staff-loyalty__lots">
            <caption className="visually-hidden">Points by the entry that gave them, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Earned</th>
                <th scope="col">Reason</th>
                <th scope="col" className="text-end">
                  Points
                </th>
                <th scope="col" className="text-end">
                  Left
                </th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((lot) => (
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
            </tbody>
          </Table>
        </ScrollRegion>
      )}
    </section>
  );
}
