import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  checkCandidates,
  claimResult,
  createAccountRequest,
  type ClaimResult,
  hotelClaimRequest,
  purchaseClaimRequest,
  ticketClaimRequest,
  verifyRequest,
} from '@boardwalk/contract/loyalty';
import { claimHotel, claimPurchase, claimTickets } from '../../loyalty/loyalty-claims.service.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';
import { createAccount, guestClaim, verifyAccount, type GuestLoyalty } from './loyalty.service.ts';

const userIdText = z.string().describe('The loyalty user id, as text');
const claimTokenText = z
  .string()
  .describe("The new account's user id for the claim calls, as text: a secret token, valid for the hour in which it may claim online");
const claimErrors = { 400: apiError.describe('The reason the purchase cannot be claimed, fit to show the guest'), 429: apiError };

/**
 * The loyalty club's public calls: no authorization, throttled per client address. Only the
 * user id create answers claims; a claim needs the purchase to be under the member's email.
 */
export const loyaltyRoutes: FastifyPluginAsyncZod = async (app) => {
  const guest: GuestLoyalty = {
    core: loyaltyCoreOf(app),
    keys: app.keys,
    throttle: app.loyaltyThrottle,
    accountsLimit: app.loyaltyAccountsLimit,
  };

  app.post('/api/loyalty/verify', {
    schema: {
      tags: ['loyalty'],
      summary: 'The user id (text) of the loyalty account with this email; 404 when there is none. It cannot claim or obtain a card',
      body: verifyRequest,
      response: { 200: userIdText, 400: apiError, 404: apiError, 429: apiError },
    },
    handler: async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(await verifyAccount(guest, request.ip, request.body.email)),
  });

  app.post('/api/loyalty/create', {
    schema: {
      tags: ['loyalty'],
      summary: 'Create a loyalty account: its user id for the claim calls (text); 409 when the email already has one',
      body: createAccountRequest,
      response: { 200: claimTokenText, 400: apiError, 409: apiError, 429: apiError },
    },
    handler: async (request, reply) => reply.type('text/plain; charset=utf-8').send(await createAccount(guest, request.ip, request.body)),
  });

  app.post('/api/loyalty/tickets/', {
    schema: {
      tags: ['loyalty'],
      summary: 'Claim an in-park ticket purchase (order id or a scanned ticket barcode)',
      body: ticketClaimRequest,
      response: { 200: claimResult, ...claimErrors },
    },
    handler: (request) => guestClaim(guest, request.ip, claimTickets, request.body) as Promise<ClaimResult>,
  });

  app.post('/api/loyalty/purchase/', {
    schema: {
      tags: ['loyalty'],
      summary: 'Claim a food and beverage check (number or receipt code); several checks with that number answer the candidates',
      body: purchaseClaimRequest,
      response: { 200: z.union([claimResult, checkCandidates]), ...claimErrors },
    },
    handler: (request) => guestClaim(guest, request.ip, claimPurchase, request.body),
  });

  app.post('/api/loyalty/hotels/', {
    schema: {
      tags: ['loyalty'],
      summary: 'Claim a hotel reservation',
      body: hotelClaimRequest,
      response: { 200: claimResult, ...claimErrors },
    },
    handler: (request) => guestClaim(guest, request.ip, claimHotel, request.body) as Promise<ClaimResult>,
  });
};
