import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import {
  checkCandidates,
  claimResult,
  confirmAnswer,
  confirmRequest,
  createAccountRequest,
  type ClaimResult,
  hotelClaimRequest,
  purchaseClaimRequest,
  ticketClaimRequest,
  verifyAnswer,
  verifyRequest,
} from '@boardwalk/contract/loyalty';
import {
  statement,
  statementLedgerPage,
  statementLedgerQuery,
  statementLinkAnswer,
  statementLinkRequest,
} from '@boardwalk/contract/loyalty-statement';
import { claimHotel, claimPurchase, claimTickets } from '../../loyalty/loyalty-claims.service.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';
import { confirmEmailCode, createAccount, guestClaim, requestEmailCode, type GuestLoyalty } from './loyalty.service.ts';
import { bearerToken, readStatement, readStatementLedger, requestStatementLink, type GuestStatement } from './loyalty-statement.service.ts';
import { guestLanguage } from '../../platform/guest-language.ts';

const claimTokenText = z
  .string()
  .describe("The new account's user id for the claim calls, as text: a secret token, valid for the hour in which it may claim online");
const statementHeaders = z.object({
  authorization: z.string().optional().describe("Bearer and the token of the member's statement link (the fragment of the link)"),
});
const statementErrors = {
  401: describe(apiError, 'The link is missing, expired, not valid or its member was removed: what to do, fit to show'),
};
/** A call that mails a link or a code: a malformed email, or too many calls from this address. */
const mailingErrors = { 400: apiError, 429: apiError };
const claimErrors = { 400: describe(apiError, 'The reason the purchase cannot be claimed, fit to show the guest'), 429: apiError };

/**
 * The loyalty club's public calls: no authorization, throttled per client address. An email
 * counts once its one-time code proved it; only the user id create answers (for a proven
 * email) claims; a claim needs the purchase to be under the member's email.
 */
export const loyaltyRoutes: FastifyPluginAsyncZod = async (app) => {
  const guest: GuestLoyalty = {
    core: loyaltyCoreOf(app),
    keys: app.keys,
    throttle: app.loyaltyThrottle,
    accountsLimit: app.loyaltyAccountsLimit,
    mailer: app.mailer,
    config: app.config,
    codeLimits: app.loyaltyCodeLimits,
    codeFailures: app.loyaltyCodeFailures,
  };

  const statementDeps: GuestStatement = {
    core: guest.core,
    keys: app.keys,
    mailer: app.mailer,
    jobs: app.jobs,
    config: app.config,
    limits: app.loyaltyStatementLimits,
  };

  app.post('/api/loyalty/statement-link', {
    schema: {
      tags: ['loyalty'],
      summary: "Email a member the link to their statement (valid 24 hours); the same answer for any email, a member's or not",
      body: statementLinkRequest,
      response: { 202: statementLinkAnswer, ...mailingErrors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await requestStatementLink(statementDeps, request.ip, request.body.email, guestLanguage(request))),
  });

  app.get('/api/loyalty/statement', {
    schema: {
      tags: ['loyalty'],
      summary: "The member's statement: balance, tier and progress, the newest ledger entries, the rewards and a wallet token",
      headers: statementHeaders,
      response: { 200: statement, ...statementErrors },
    },
    // Never cached, like every /api/ answer (platform/http.plugin.ts).
    handler: (request) => readStatement(statementDeps, bearerToken(request.headers.authorization), guestLanguage(request)),
  });

  app.get('/api/loyalty/statement/ledger', {
    schema: {
      tags: ['loyalty'],
      summary: "Older entries of the member's ledger, newest first",
      headers: statementHeaders,
      querystring: statementLedgerQuery,
      response: { 200: statementLedgerPage, 400: apiError, ...statementErrors },
    },
    handler: (request) =>
      readStatementLedger(statementDeps, bearerToken(request.headers.authorization), request.query.before, guestLanguage(request)),
  });

  app.post('/api/loyalty/verify', {
    schema: {
      tags: ['loyalty'],
      summary:
        "Email a one-time code (6 digits, valid 60 minutes, 10 tries) that proves the email; the same answer for any email, a member's or not",
      body: verifyRequest,
      response: { 202: verifyAnswer, ...mailingErrors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await requestEmailCode(guest, request.ip, request.body.email, guestLanguage(request))),
  });

  app.post('/api/loyalty/confirm', {
    schema: {
      tags: ['loyalty'],
      summary: "Prove the email with its code: the account's user id, or (no account) the proof create takes",
      body: confirmRequest,
      response: {
        200: confirmAnswer,
        400: describe(apiError, 'The code is wrong, expired or used up: what to do, fit to show'),
        429: apiError,
      },
    },
    handler: (request) => confirmEmailCode(guest, request.ip, { ...request.body, language: guestLanguage(request) }),
  });

  app.post('/api/loyalty/create', {
    schema: {
      tags: ['loyalty'],
      summary:
        'Create a loyalty account for an email proven by its code: its user id for the claim calls (text); 409 when the email already has one',
      body: createAccountRequest,
      response: { 200: claimTokenText, 400: apiError, 409: apiError, 429: apiError },
    },
    handler: async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(await createAccount(guest, request.ip, { ...request.body, language: guestLanguage(request) })),
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
