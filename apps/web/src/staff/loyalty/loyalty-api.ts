// The Loyalty tab's calls (/api/admin/loyalty/...), each with the member's bearer token,
// answers parsed by the contract's schemas.
import { z } from 'zod';
import { checkCandidates, type CheckCandidate } from '@boardwalk/contract/loyalty';
import {
  searchResults,
  STAFF_LOYALTY_API,
  staffAccount,
  staffClaimResult,
  staffLoyaltyOrders,
  passLinkResult,
  type StaffClaimResult,
} from '@boardwalk/contract/staff-loyalty';
import { apiText } from '../../lib/api-client.ts';
import { getStaffUser } from '../auth/staff-session.ts';
import { staffRequest } from '../auth/staff-api.ts';

const api = STAFF_LOYALTY_API;
const token = () => getStaffUser()?.accessToken;
const json = <S extends z.ZodType>(path: string, schema: S, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown) =>
  staffRequest(path, { method, schema, ...(body !== undefined && { body }) }).then((r) => r.data);
const text = (path: string, method: 'GET' | 'POST' = 'POST', body?: unknown) =>
  apiText(path, { method, token: token(), ...(body !== undefined && { body }) });
const id = encodeURIComponent;

export const loyaltyApi = {
  verify: (email: string) => text(`${api}verify`, 'POST', { email }),
  create: (body: { email: string; firstName: string; lastName: string }) => text(`${api}create`, 'POST', body),
  orders: (email: string) => json(api, staffLoyaltyOrders, 'POST', { email }),
  search: (searchTerm: string) => json(`${api}search/`, searchResults, 'POST', { searchTerm }),
  account: (userId: string) => json(`${api}account/${id(userId)}/`, staffAccount),
  removeAccount: (userId: string) => json(`${api}${id(userId)}`, z.unknown(), 'DELETE'),
  seasonPass: (userId: string) => text(`${api}pass/${id(userId)}/`, 'GET'),
  addSeasonPass: (userID: string, seasonPassID: string) => text(`${api}pass/`, 'POST', { userID, seasonPassID }),
  removeSeasonPass: (userId: string) => json(`${api}pass/${id(userId)}`, z.unknown(), 'DELETE'),
  removeOrder: (userId: string, orderId: string, barcode: string) =>
    json(`${api}order/${id(userId)}/${id(orderId)}/${id(barcode)}`, z.unknown(), 'DELETE'),
  adjust: (userID: string, points: number, reason: string) =>
    json(`${api}adjust/`, z.object({ balance: z.number() }), 'POST', { userID, points, reason }),
  contact: (userID: string, phone: string, zip: string) => json(`${api}contact/`, z.unknown(), 'POST', { userID, phone, zip }),
  passLink: (userID: string) => json(`${api}pass-link/`, passLinkResult, 'POST', { userID }),
};

export type StaffClaimKind = 'tickets' | 'purchase' | 'hotels';
const claimAnswer = z.union([staffClaimResult, checkCandidates]);

/** POST /api/admin/loyalty/{kind}/: the claim's result, or (food and beverage) the candidate checks. */
export const staffClaim = (kind: StaffClaimKind, body: Record<string, string>): Promise<StaffClaimResult | CheckCandidate[]> =>
  json(`${api}${kind}/`, claimAnswer, 'POST', body);
