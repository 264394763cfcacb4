// Apple's PassKit web service (webServiceURL = PUBLIC_URL/api/passkit in every pass), as
// Apple documents it: devices register and unregister for a pass, ask which of their passes
// changed since a tag, fetch the latest version of one, and report problems to the log.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe } from '@boardwalk/contract/describe';
import { apiError } from '@boardwalk/contract/errors';
import {
  passkitDeviceParams,
  passkitLogBody,
  passkitPassParams,
  passkitRegistrationBody,
  passkitRegistrationParams,
  passkitSerialNumbers,
  passkitUpdatedQuery,
} from '@boardwalk/contract/passkit';
import { PKPASS_CONTENT_TYPE } from './apple-pkpass.ts';
import { logDeviceMessages } from './passkit-log.service.ts';

const PREFIX = '/api/passkit/v1';
const empty = z.void().describe('No body');
const errors = { 400: apiError, 401: describe(apiError, 'No valid `Authorization: ApplePass <token>`'), 404: apiError };

export const passkitRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passkit } = app.wallet;
  const registration = `${PREFIX}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber`;

  app.post(registration, {
    schema: {
      tags: ['passkit'],
      summary: 'A device registers for updates of a pass (201 new, 200 already registered)',
      params: passkitRegistrationParams,
      body: passkitRegistrationBody,
      response: { 200: empty, 201: empty, ...errors },
    },
    handler: async (request, reply) => {
      const outcome = await passkit.registerDevice({
        ...request.params,
        pushToken: request.body.pushToken,
        authorization: request.headers.authorization,
      });
      return reply.code(outcome === 'created' ? 201 : 200).send(undefined);
    },
  });

  app.delete(registration, {
    schema: {
      tags: ['passkit'],
      summary: 'A device unregisters from a pass (the pass was removed from its wallet)',
      params: passkitRegistrationParams,
      response: { 200: empty, ...errors },
    },
    handler: async (request, reply) => {
      await passkit.unregisterDevice({ ...request.params, authorization: request.headers.authorization });
      return reply.code(200).send(undefined);
    },
  });

  app.get(`${PREFIX}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier`, {
    schema: {
      tags: ['passkit'],
      summary: 'The serial numbers of the device’s passes updated since a tag (204 when none)',
      params: passkitDeviceParams,
      querystring: passkitUpdatedQuery,
      response: { 200: passkitSerialNumbers, 204: empty, ...errors },
    },
    handler: async (request, reply) => {
      const updated = await passkit.updatedSerialNumbers({ ...request.params, passesUpdatedSince: request.query.passesUpdatedSince });
      if (!updated) return reply.code(204).send(undefined);
      return updated;
    },
  });

  app.get(`${PREFIX}/passes/:passTypeIdentifier/:serialNumber`, {
    schema: {
      tags: ['passkit'],
      summary: 'The latest version of a pass (304 when not modified since If-Modified-Since)',
      params: passkitPassParams,
      produces: [PKPASS_CONTENT_TYPE, 'application/json'],
      response: { 200: z.instanceof(Buffer).describe('The pass: application/vnd.apple.pkpass'), 304: empty, ...errors },
    },
    handler: async (request, reply) => {
      const result = await passkit.latestPass({
        ...request.params,
        authorization: request.headers.authorization,
        ifModifiedSince: request.headers['if-modified-since'],
      });
      reply.header('Last-Modified', result.lastModified.toUTCString()).header('Cache-Control', 'no-store');
      if ('notModified' in result) return reply.code(304).send(undefined);
      return reply.type(PKPASS_CONTENT_TYPE).send(result.pkpass);
    },
  });

  app.post(`${PREFIX}/log`, {
    schema: {
      tags: ['passkit'],
      summary: 'Devices report problems with the web service (the first lines are logged, shortened; 429 when an address sends too many)',
      body: passkitLogBody,
      response: { 200: empty, 400: apiError, 429: apiError },
    },
    handler: async (request, reply) => {
      await app.passkitLogLimit.attempt(request.ip, async () => logDeviceMessages(app.log, request.body.logs));
      return reply.code(200).send(undefined);
    },
  });
};
