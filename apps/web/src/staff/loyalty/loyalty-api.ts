// The Loyalty tab's calls (/api/admin/loyalty/...), each with the member's bearer token, answers
// parsed by the contract's schemas; and the member's queries more than one section reads. Every
// query of one member is cached under memberKey(userID); each section keeps its own calls,
// query options and mutations beside its component, and a mutation invalidates the keys of the
// queries its change shows in.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { STAFF_LOYALTY_API, staffAccount, staffLoyaltyOrders } from '@boardwalk/contract/staff-loyalty';
import { apiText, type ContractSchema } from '../../lib/api-client.ts';
import { getStaffUser } from '../auth/staff-session.ts';
import { staffRequest } from '../auth/staff-api.ts';
import { STAFF_QUERY_KEY } from '../auth/use-staff-logout.ts';

export const api = STAFF_LOYALTY_API;
export const id = encodeURIComponent;

/** A JSON call: its answer parsed by the schema. */
export const loyaltyJson = <S extends ContractSchema>(path: string, schema: S, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown) =>
  staffRequest(path, { method, schema, ...(body !== undefined && { body }) }).then((r) => r.data);

/** A call answered with plain text (an id). */
export const loyaltyText = (path: string, method: 'GET' | 'POST' = 'POST', body?: unknown) =>
  apiText(path, { method, token: getStaffUser()?.accessToken, ...(body !== undefined && { body }) });

export const memberKey = (userID: string) => [STAFF_QUERY_KEY, 'loyalty', userID] as const;

/** The member's name, number, phone, zip, balance and ledger. */
export const accountQuery = (userID: string) =>
  queryOptions({
    queryKey: [...memberKey(userID), 'account'],
    queryFn: () => loyaltyJson(`${api}account/${id(userID)}/`, staffAccount),
    retry: false,
  });

export type LoyaltyAccountData = z.output<typeof staffAccount>;

/** The member's claimed orders (found by email). */
export const ordersQuery = (userID: string, email: string) =>
  queryOptions({
    queryKey: [...memberKey(userID), 'orders'],
    queryFn: () => loyaltyJson(api, staffLoyaltyOrders, 'POST', { email }),
    retry: false,
  });
