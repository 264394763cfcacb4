// The loyalty calls (the email's code, create, the three claims): fetchers and mutations side by side.
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  checkCandidates,
  claimResult,
  confirmAnswer,
  verifyAnswer,
  type Birthday,
  type CheckCandidate,
  type ClaimResult,
  type HotelClaimRequest,
  type PurchaseClaimRequest,
  type TicketClaimRequest,
} from '@boardwalk/contract/loyalty';
import { apiRequest, apiText } from '../../lib/api-client.ts';

/** Mails a one-time code to the email (the same answer for any email). */
export const sendCode = (email: string) => apiRequest('/api/loyalty/verify', { method: 'POST', body: { email }, schema: verifyAnswer });
/** The code proves the email: the account's user id, or the proof create takes. */
export const confirmCode = (body: { email: string; code: string }) =>
  apiRequest('/api/loyalty/confirm', { method: 'POST', body, schema: confirmAnswer });
export const createMember = (body: {
  email: string;
  firstName: string;
  lastName: string;
  proof: string;
  birthday?: Birthday | null;
  referralCode?: string;
}) => apiText('/api/loyalty/create', { method: 'POST', body });

export type ClaimKind = 'tickets' | 'purchase' | 'hotels';
export type ClaimRequest = TicketClaimRequest | PurchaseClaimRequest | HotelClaimRequest;

const claimAnswer = z.union([claimResult, checkCandidates]);

/** POST /api/loyalty/{kind}/: the claim's result, or (food and beverage) the candidate checks. */
export const claimPurchase = (kind: ClaimKind, body: ClaimRequest): Promise<ClaimResult | CheckCandidate[]> =>
  apiRequest(`/api/loyalty/${kind}/`, { method: 'POST', body, schema: claimAnswer });

export const useClaim = (kind: ClaimKind) => useMutation({ mutationFn: (body: ClaimRequest) => claimPurchase(kind, body) });
