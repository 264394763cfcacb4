// The tills' and the operator's mobile app's loyalty calls, on the integration API. They sit in
// the loyalty folder because the loyalty core reads the feeds' repos (an integration folder
// importing the core would close a cycle); app.ts hands them to the integration scope, which
// applies its key check and shared error answers as to every feed.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import {
  LOYALTY_INTEGRATION_API,
  memberParam,
  redemptionIdParam,
  redemptionRequest,
  redemptionResult,
  redemptionReversal,
  tillMember,
} from '@boardwalk/contract/loyalty-integration';
import type { FastifyRequest } from 'fastify';
import { holdsScope } from '../integrations/integration-auth.plugin.ts';
import { findTillMember, memberKeyOf, redeemReward, reverseRedemption, type Redeemer } from './loyalty-redemptions.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

/** The till calling: its key's name is the system recorded as the cause. */
const tillOf = (request: FastifyRequest): Redeemer => ({
  causedBy: 'till',
  system: request.integration,
  reverseAny: holdsScope(request.integrationScopes, 'reverse-any'),
});

export const loyaltyIntegrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const core = loyaltyCoreOf(app);

  app.get(`${LOYALTY_INTEGRATION_API}members/:member`, {
    config: { integrationScope: 'members' },
    schema: {
      summary:
        "A loyalty member by the card's barcode or the typed member number: name, balance, tier, points expiring within 30 days and the rewards they can redeem now",
      params: memberParam,
      response: { 200: tillMember, 404: apiError },
    },
    handler: (request) => findTillMember(core, memberKeyOf(request.params.member)),
  });

  app.post(`${LOYALTY_INTEGRATION_API}redemptions`, {
    config: { integrationScope: 'redeem' },
    schema: {
      summary:
        "Redeem a reward for the member whose card's barcode is given, once per idempotency key of this system (201; the same key again: 200, the same answer, nothing spent)",
      body: redemptionRequest,
      response: {
        200: redemptionResult,
        201: redemptionResult,
        404: describe(apiError, 'Unknown card or reward'),
        409: describe(apiError, 'Why the member cannot redeem it now: points, tier, limit, dates, or a key used for another redemption'),
      },
    },
    handler: async (request, reply) => {
      const { card, ...rest } = request.body;
      const { result, created } = await redeemReward(core, { member: { card }, ...rest }, tillOf(request));
      return reply.code(created ? 201 : 200).send(result);
    },
  });

  app.post(`${LOYALTY_INTEGRATION_API}redemptions/:redemptionId/reverse`, {
    config: { integrationScope: 'reverse' },
    schema: {
      summary:
        'Give back the points of a redemption (the sale was voided) to the lots they came from, with their own expiry: once; again answers 200 and gives nothing more',
      params: redemptionIdParam,
      response: {
        200: redemptionReversal,
        403: describe(apiError, 'Another system\'s redemption, and the key lacks the scope "reverse-any"'),
        404: apiError,
      },
    },
    handler: (request) => reverseRedemption(core, request.params.redemptionId, tillOf(request)),
  });
};
