// The member's statement calls: ask for the link by email; read the statement and its older
// ledger pages with the link's token. Fetchers, the query and the mutation side by side.
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import {
  statement,
  statementLedgerPage,
  statementLinkAnswer,
  type Statement,
  type StatementLedgerPage,
} from '@boardwalk/contract/loyalty-statement';
import { apiRequest } from '../../lib/api-client.ts';

export const useStatementLink = () =>
  useMutation({
    mutationFn: (email: string) =>
      apiRequest('/api/loyalty/statement-link', { method: 'POST', body: { email }, schema: statementLinkAnswer }),
  });

/** The first page is the statement itself (with the newest entries); each further page is older ledger entries. */
type StatementPage = Statement | StatementLedgerPage;

export const statementQuery = (token: string) =>
  infiniteQueryOptions({
    queryKey: ['loyalty-statement', token],
    queryFn: ({ pageParam, signal }): Promise<StatementPage> =>
      pageParam === null
        ? apiRequest('/api/loyalty/statement', { token, signal, schema: statement })
        : apiRequest(`/api/loyalty/statement/ledger?before=${pageParam}`, { token, signal, schema: statementLedgerPage }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => ('ledger' in last ? last.ledger.nextBefore : last.nextBefore),
  });
