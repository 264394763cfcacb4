import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import { loginRequest, passOrder, registerRequest, siteInfo } from '@boardwalk/contract/pass';
import { passLanguageAnswer, passLanguageRequest } from '@boardwalk/contract/pass-language';
import { consentWording } from './consent-wording.ts';
import { consentTextsOnce, lookupPass, registerPass, type PassDeps } from './pass.service.ts';
import { changePassLanguage, type ShareLanguageWriter } from './pass-language.service.ts';
import { guestLanguage } from '../../platform/guest-language.ts';

const errors = { 400: apiError, 404: apiError, 410: apiError, 429: apiError };

/** The share feature's writer of a share's language, handed in by app.ts (a guest feature imports no other). */
export interface PassRoutesOptions {
  shareLanguage: ShareLanguageWriter;
}

export const passRoutes: FastifyPluginAsyncZod<PassRoutesOptions> = async (app, options) => {
  const deps: PassDeps = {
    db: app.database.db,
    tickets: app.tickets,
    keys: app.keys,
    changes: app.jobs,
    activity: app.activity,
    consentTexts: consentTextsOnce(app.database.db, app.config.brandName),
  };

  app.post('/api/login/', {
    schema: {
      tags: ['guest'],
      summary: 'Find a pass by order id and barcode (order id 0 for a test pass), or by a share link',
      body: loginRequest,
      response: { 200: passOrder, ...errors },
    },
    handler: (request) => lookupPass(deps, { clientAddress: request.ip, ...request.body, language: guestLanguage(request) }),
  });

  app.post('/api/register/', {
    schema: {
      tags: ['guest'],
      summary: "Save the guest's registration for a ticket",
      body: registerRequest,
      response: { 200: passOrder, ...errors },
    },
    handler: (request) => registerPass(deps, { clientAddress: request.ip, ...request.body, language: guestLanguage(request) }),
  });

  app.put('/api/pass/language', {
    schema: {
      tags: ['guest'],
      summary:
        "The guest page's language switch: the pass's guest's language (the registration's, or a shared guest's share's), which their passes follow",
      body: passLanguageRequest,
      response: {
        200: passLanguageAnswer,
        ...errors,
        409: describe(apiError, 'The ticket is not registered yet: nothing holds its language'),
      },
    },
    handler: (request) =>
      changePassLanguage({ ...deps, shareLanguage: options.shareLanguage }, { clientAddress: request.ip, ...request.body }),
  });

  app.get('/api/site/', {
    schema: { tags: ['guest'], summary: 'Public settings: brand and support email', response: { 200: siteInfo } },
    handler: async (request, reply) => {
      // The consents are worded in the call's language.
      void reply.header('Vary', 'Accept-Language');
      return {
        brandName: app.config.brandName,
        supportEmail: app.config.supportEmail,
        consents: consentWording(app.config.brandName, guestLanguage(request)),
      };
    },
  });
};
