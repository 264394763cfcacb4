// The tills' and the operator's mobile app's loyalty calls, on the integration API. They sit in
// the loyalty folder because the loyalty core reads the feeds' repos (an integration folder
// importing the core would close a cycle); app.ts hands them to the integration scope, which
// applies its key check and shared error answers as to every feed.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  LOYALTY_INTEGRATION_API,
  memberNumberParam,
  redemptionIdParam,
  redemptionRequest,
  redemptionResult,
  redemptionReversal,
  tillMember,
} from '@boardwalk/contract/loyalty-integration';
import { findTillMember, redeemReward, reverseRedemption, type Redeemer } from './loyalty-redemptions.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

const TILL: Redeemer = { causedBy: 'till' };

export const loyaltyIntegrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const core = loyaltyCoreOf(app);

  app.get(`${LOYALTY_INTEGRATION_API}members/:memberNumber`, {
    config: { integrationScope: 'members' },
    schema: {
      summary:
        'A loyalty member by the card barcode: name, email, balance, tier, points expiring within 30 days and the rewards they can redeem now',
      params: memberNumberParam,
      response: { 200: tillMember, 404: apiError },
    },
    handler: (request) => findTillMember(core, request.params.memberNumber),
  });

  app.post(`${LOYALTY_INTEGRATION_API}redemptions`, {
    config: { integrationScope: 'redeem' },
    schema: {
      summary: 'Redeem a reward for a member, once per idempotency key (201; the same key again: 200, the same answer, nothing spent)',
      body: redemptionRequest,
      response: {
        200: redemptionResult,
        201: redemptionResult,
        404: apiError.describe('Unknown member number or reward'),
        409: apiError.describe('Why the member cannot redeem it now: points, tier, limit, dates, or a key used for another redemption'),
      },
    },
    handler: async (request, reply) => {
      const { result, created } = await redeemReward(core, request.body, TILL);
      return reply.code(created ? 201 : 200).send(result);
    },
  });

  app.post(`${LOYALTY_INTEGRATION_API}redemptions/:redemptionId/reverse`, {
    config: { integrationScope: 'reverse' },
    schema: {
      summary: 'Give back the points of a redemption (the sale was voided): once; again answers 200 and gives nothing more',
      params: redemptionIdParam,
      response: { 200: redemptionReversal, 404: apiError },
    },
    handler: (request) => reverseRedemption(core, request.params.redemptionId, TILL),
  });
};
