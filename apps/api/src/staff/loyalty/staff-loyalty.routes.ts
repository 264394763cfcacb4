// The Loyalty tab's calls: search, verify, create, the account's orders, claims on a member's
// behalf and removals, plus the account with its ledger, points adjustments, contact details,
// the season pass id, the pass link mail, and the member's redemptions. Loyalty Manage guards
// all but the removals and the redemptions: Loyalty Remove Account, Loyalty Remove Order and
// Loyalty Redeem (redeem a reward, reverse a redemption) guard those.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import { checkCandidates } from '@boardwalk/contract/loyalty';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import {
  adjustRequest,
  contactRequest,
  orderParams,
  ordersRequest,
  passLinkRequest,
  passLinkResult,
  searchRequest,
  searchResults,
  seasonPassRequest,
  STAFF_LOYALTY_API,
  staffAccount as staffAccountSchema,
  staffClaimResult,
  staffCreateRequest,
  staffHotelClaimRequest,
  staffLoyaltyOrders,
  staffPurchaseClaimRequest,
  staffLots as staffLotsSchema,
  staffRedeemRequest,
  staffRedeemResult,
  staffRedemptions as staffRedemptionsSchema,
  staffReverseRequest,
  staffReverseResult,
  staffTicketClaimRequest,
  staffVerifyRequest,
  userIdParams,
} from '@boardwalk/contract/staff-loyalty';
import {
  staffAccount,
  staffAddSeasonPass,
  staffCreate,
  staffMailPassLink,
  staffRemoveAccount,
  staffRemoveSeasonPass,
  staffSearch,
  staffSeasonPass,
  staffSetContact,
  staffVerify,
} from './staff-loyalty-accounts.service.ts';
import { staffClaimHotel, staffClaimPurchase, staffClaimTickets, staffOrders, staffRemoveOrder } from './staff-loyalty-claims.service.ts';
import { staffAdjust, staffLots, staffRedeem, staffRedemptions, staffReverseRedemption } from './staff-loyalty-points.service.ts';
import type { StaffLoyaltyDeps } from './staff-loyalty.service.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';

const api = STAFF_LOYALTY_API;
const guarded = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };
const text = z.string();
const done = z.object({ ok: z.literal(true) });

export const staffLoyaltyRoutes: FastifyPluginAsyncZod = async (app) => {
  const core = loyaltyCoreOf(app);
  const deps: StaffLoyaltyDeps = { core, db: app.database.db, config: app.config, keys: app.keys, mailer: app.mailer, cards: app.jobs };
  const manage = app.staffGuard(LOYALTY.manage);
  const tags = ['staff loyalty'];

  app.post(`${api}verify`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'The user id (text) of the account with this email; 404 when none',
      body: staffVerifyRequest,
      response: { 200: text, ...guarded },
    },
    handler: async (request, reply) => reply.type('text/plain; charset=utf-8').send(await staffVerify(deps, request.body.email)),
  });

  app.post(`${api}create`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'Create an account for a member: its user id (text); 409 when the email has one',
      body: staffCreateRequest,
      response: { 200: text, ...guarded },
    },
    handler: async (request, reply) => reply.type('text/plain; charset=utf-8').send(await staffCreate(deps, request.staff!, request.body)),
  });

  app.post(api, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'The standing loyalty orders of the account with this email',
      body: ordersRequest,
      response: { 200: staffLoyaltyOrders, ...guarded },
    },
    handler: (request) => staffOrders(deps, request.body.email),
  });

  app.post(`${api}search/`, {
    onRequest: manage,
    schema: {
      tags,
      summary:
        'Account / Order Lookup: accounts whose email, name, phone, zip or member number, or a claimed order id, barcode, check or reservation number, contains the term',
      body: searchRequest,
      response: { 200: searchResults, ...guarded },
    },
    handler: (request) => staffSearch(deps, request.body.searchTerm),
  });

  app.get(`${api}account/:userId/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'The account with its points balance and ledger (newest first)',
      params: userIdParams,
      response: { 200: staffAccountSchema, ...guarded },
    },
    handler: (request) => staffAccount(deps, request.params.userId),
  });

  app.delete(`${api}:userId`, {
    onRequest: app.staffGuard(LOYALTY.removeAccount),
    schema: {
      tags,
      summary: 'Remove the account with its loyalty orders and ledger',
      params: userIdParams,
      response: { 200: done, ...guarded },
    },
    handler: async (request) => {
      await staffRemoveAccount(deps, request.staff!, request.params.userId);
      return { ok: true as const };
    },
  });

  app.get(`${api}pass/:userId/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'The season pass id (text); 404 when the account has none',
      params: userIdParams,
      response: { 200: text, ...guarded },
    },
    handler: async (request, reply) => reply.type('text/plain; charset=utf-8').send(await staffSeasonPass(deps, request.params.userId)),
  });

  app.post(`${api}pass/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'Set the season pass id (one per account; 409 when another account holds it)',
      body: seasonPassRequest,
      response: { 200: text, ...guarded },
    },
    handler: async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(await staffAddSeasonPass(deps, request.staff!, request.body.userID, request.body.seasonPassID)),
  });

  app.delete(`${api}pass/:userId`, {
    onRequest: manage,
    schema: { tags, summary: 'Remove the season pass id', params: userIdParams, response: { 200: done, ...guarded } },
    handler: async (request) => {
      await staffRemoveSeasonPass(deps, request.staff!, request.params.userId);
      return { ok: true as const };
    },
  });

  app.delete(`${api}order/:userId/:orderId/:barcode`, {
    onRequest: app.staffGuard(LOYALTY.removeOrder),
    schema: {
      tags,
      summary: 'Remove an order: a reversal entry takes its points back and the purchase can be claimed again',
      params: orderParams,
      response: { 200: done, ...guarded },
    },
    handler: async (request) => {
      const { userId, orderId, barcode } = request.params;
      await staffRemoveOrder(deps, request.staff!, userId, orderId, barcode);
      return { ok: true as const };
    },
  });

  app.post(`${api}tickets/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "Add a ticket order on the member's behalf (admin mode)",
      body: staffTicketClaimRequest,
      response: { 200: staffClaimResult, ...guarded },
    },
    handler: (request) => staffClaimTickets(deps, request.staff!, request.body),
  });

  app.post(`${api}purchase/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "Add a food and beverage check on the member's behalf; several checks with the number answer the candidates",
      body: staffPurchaseClaimRequest,
      response: { 200: z.union([staffClaimResult, checkCandidates]), ...guarded },
    },
    handler: (request) => staffClaimPurchase(deps, request.staff!, request.body),
  });

  app.post(`${api}hotels/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "Add a hotel reservation on the member's behalf (admin mode)",
      body: staffHotelClaimRequest,
      response: { 200: staffClaimResult, ...guarded },
    },
    handler: (request) => staffClaimHotel(deps, request.staff!, request.body),
  });

  app.post(`${api}adjust/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'Adjust the points with a reason (a ledger entry by this staff member)',
      body: adjustRequest,
      response: { 200: z.object({ balance: z.number().int() }), ...guarded },
    },
    handler: (request) => staffAdjust(deps, request.staff!, request.body.userID, request.body.points, request.body.reason),
  });

  app.post(`${api}contact/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "Set the member's phone and zip (empty clears) and birthday (null clears, absent keeps)",
      body: contactRequest,
      response: { 200: done, ...guarded },
    },
    handler: async (request) => {
      const { userID, ...contact } = request.body;
      await staffSetContact(deps, request.staff!, userID, contact);
      return { ok: true as const };
    },
  });

  app.post(`${api}pass-link/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: 'Mail the member a link to their loyalty pass (valid 24 hours)',
      body: passLinkRequest,
      response: { 200: passLinkResult, ...guarded },
    },
    handler: (request) => staffMailPassLink(deps, request.staff!, request.body.userID),
  });

  app.get(`${api}redemptions/:userId/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "The member's redemptions (newest first), the rewards they can redeem now and a fresh idempotency key for the Redeem form",
      params: userIdParams,
      response: { 200: staffRedemptionsSchema, ...guarded },
    },
    handler: (request) => staffRedemptions(deps, request.params.userId),
  });

  app.get(`${api}lots/:userId/`, {
    onRequest: manage,
    schema: {
      tags,
      summary: "The member's lots (newest first): the points each positive entry gave, what is left and when it expires",
      params: userIdParams,
      response: { 200: staffLotsSchema, ...guarded },
    },
    handler: (request) => staffLots(deps, request.params.userId),
  });

  const redeem = app.staffGuard(LOYALTY.redeem);

  app.post(`${api}redemptions/`, {
    onRequest: redeem,
    schema: {
      tags,
      summary:
        'Redeem a reward for the member (a ledger entry naming the reward), once per form key: the same key again answers the same redemption; 409 with the reason when the member cannot redeem it now',
      body: staffRedeemRequest,
      response: { 200: staffRedeemResult, ...guarded },
    },
    handler: (request) => staffRedeem(deps, request.staff!, request.body),
  });

  app.post(`${api}redemptions/reverse/`, {
    onRequest: redeem,
    schema: {
      tags,
      summary: "Give a redemption's points back (a ledger entry naming the reward): once; again answers the same and gives nothing more",
      body: staffReverseRequest,
      response: { 200: staffReverseResult, ...guarded },
    },
    handler: (request) => staffReverseRedemption(deps, request.staff!, request.body),
  });
};
