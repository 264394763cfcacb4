// A guest's own request: POST /api/privacy/request (the emailed link), GET /api/privacy/data and
// POST /api/privacy/erase (the link's token as a bearer token).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { privacyErasure, privacyExport, privacyLinkAnswer, privacyLinkRequest } from '@boardwalk/contract/privacy';
import { bearerToken } from '../ticket/ticket-tokens.service.ts';
import { eraseOwnData, readPersonalData, requestPrivacyLink, type GuestPrivacy } from './privacy-request.service.ts';
import { guestLanguage } from '../../platform/guest-language.ts';

const headers = z.object({
  authorization: z.string().optional().describe('Bearer and the token of the emailed privacy link (the fragment of the link)'),
});
const refused = { 401: describe(apiError, 'The link is missing, expired, not valid or already used to delete: what to do, fit to show') };

export const guestPrivacyRoutes: FastifyPluginAsyncZod<{ recordErasure: GuestPrivacy['recordErasure'] }> = async (
  app,
  { recordErasure },
) => {
  const deps: GuestPrivacy = {
    db: app.database.db,
    keys: app.keys,
    mailer: app.mailer,
    jobs: app.jobs,
    privacy: app.privacy,
    config: app.config,
    limits: app.privacyLinkLimits,
    recordErasure,
  };
  const tags = ['privacy'];

  app.post('/api/privacy/request', {
    schema: {
      tags,
      summary: 'Email the link to what is held about this email (valid 24 hours); the same answer whether or not anything is held',
      body: privacyLinkRequest,
      response: { 202: privacyLinkAnswer, 400: apiError, 429: apiError },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await requestPrivacyLink(deps, request.ip, request.body.email, guestLanguage(request))),
  });

  app.get('/api/privacy/data', {
    schema: { tags, summary: "Everything held about the link's email", headers, response: { 200: privacyExport, ...refused } },
    // Never cached, like every /api/ answer (platform/http.plugin.ts).
    handler: (request) => readPersonalData(deps, bearerToken(request.headers.authorization)),
  });

  app.post('/api/privacy/erase', {
    schema: {
      tags,
      summary: "Erase everything held about the link's email (as staff erase it); the link is then spent",
      headers,
      response: { 200: privacyErasure, ...refused },
    },
    handler: (request) => eraseOwnData(deps, bearerToken(request.headers.authorization), guestLanguage(request)),
  });
};
