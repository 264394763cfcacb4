// The ticket share calls (/api/share/...), each with `Authorization: Bearer <ticketShareToken>`
// (share.service.ts says who may do what).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import {
  createShareRequest,
  deleteShareParams,
  listSharesParams,
  shareAnswer,
  shareList,
  updateShareParams,
  updateShareRequest,
} from '@boardwalk/contract/share';
import { changeShare, createShare, listShares, stopShare, type ShareDeps } from './share.service.ts';
import { guestLanguage } from '../../platform/guest-language.ts';

const errors = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 408: apiError, 429: apiError };
const security = [{ ticketShareToken: [] }];
const auth = 'Takes `Authorization: Bearer <ticketShareToken>` of the order object (401 for another ticket or none, 408 once expired).';

export const shareRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: ShareDeps = { db: app.database.db, keys: app.keys, config: app.config, mailer: app.mailer, changes: app.jobs };
  const bearer = (request: FastifyRequest) => ({ authorization: request.headers.authorization });

  app.get('/api/share/:ticket', {
    schema: {
      tags: ['guest'],
      summary: "The ticket's active shares (204 when none)",
      description: `${auth} directLink is null: only the link's hash is kept.`,
      security,
      params: listSharesParams,
      response: { 200: shareList, 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      const shares = await listShares(deps, { ...bearer(request), ticket: request.params.ticket });
      return shares.length ? shares : reply.code(204).send(null);
    },
  });

  app.post('/api/share/', {
    schema: {
      tags: ['guest'],
      summary: 'Share the ticket with a guest: their direct link is emailed to them',
      description: `${auth} At most TICKET_SHARE_LIMIT active shares per ticket (400 beyond), and TICKET_SHARE_MAILS_PER_DAY share mails per ticket per park day, stopped shares included (429 beyond, with Retry-After). Names: letters, spaces, hyphens, apostrophes, periods. Answers the share with its directLink.`,
      security,
      body: createShareRequest,
      response: { 200: shareAnswer, ...errors },
    },
    handler: (request) => createShare(deps, { ...bearer(request), ...request.body, language: guestLanguage(request) }),
  });

  app.put('/api/share/:ticket/:shareId', {
    schema: {
      tags: ['guest'],
      summary: "Change a share's guest details",
      description: `${auth} A new email stops the old link and issues a new share (new id and directLink) mailed to the new address: it counts toward TICKET_SHARE_MAILS_PER_DAY (429 beyond).`,
      security,
      params: updateShareParams,
      body: updateShareRequest,
      response: { 200: shareAnswer, ...errors },
    },
    handler: (request) =>
      changeShare(deps, { ...bearer(request), ...request.params }, { ...request.body, language: guestLanguage(request) }),
  });

  // The salesforceId segment may be empty: /api/share/0/{barcode}/{shareId}/ (or without the slash).
  for (const url of [
    '/api/share/:orderId/:ticket/:shareId/:salesforceId',
    '/api/share/:orderId/:ticket/:shareId/',
    '/api/share/:orderId/:ticket/:shareId',
  ]) {
    app.delete(url, {
      schema: {
        tags: ['guest'],
        summary: 'Stop sharing: the share link and share id stop at once ("Pass No Longer Shared")',
        description: `${auth} orderId 0 when not known; the salesforceId segment may be empty.`,
        security,
        params: deleteShareParams,
        response: { 204: z.null(), ...errors },
      },
      handler: async (request, reply) => {
        await stopShare(deps, { ...bearer(request), ...request.params });
        return reply.code(204).send(null);
      },
    });
  }
};
