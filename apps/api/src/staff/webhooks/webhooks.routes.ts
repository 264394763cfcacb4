// The Webhooks tab's calls (Webhooks Manage): the endpoints, a secret rotated, a test message,
// an endpoint's recent messages and a dead message resent.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '@boardwalk/contract/errors';
import { WEBHOOKS_MANAGE } from '@boardwalk/contract/staff-operations-tabs';
import {
  WEBHOOKS_API,
  webhookEndpoint,
  webhookEndpointInput,
  webhookEndpointList,
  webhookEndpointParams,
  webhookEndpointWithSecret,
  webhookMessage,
  webhookMessageList,
  webhookMessageParams,
} from '@boardwalk/contract/webhooks';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  listWebhookMessages,
  resendWebhookMessage,
  rotateWebhookSecret,
  sendTestMessage,
  updateWebhookEndpoint,
  type WebhooksDeps,
} from './webhooks.service.ts';

const errors = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };

export const staffWebhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: WebhooksDeps = {
    db: app.database.db,
    jobs: app.jobs,
    keys: app.keys,
    allowPrivateNetworks: app.config.webhooks.allowPrivateNetworks,
  };
  const guarded = { onRequest: app.staffGuard(WEBHOOKS_MANAGE) };
  const tags = ['staff'];

  app.get(WEBHOOKS_API, {
    ...guarded,
    schema: { tags, summary: 'Webhooks: the endpoints, with their last 24 hours', response: { 200: webhookEndpointList, ...errors } },
    handler: () => listWebhookEndpoints(deps),
  });
  app.post(WEBHOOKS_API, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: a new endpoint; its signing secret is in this answer only',
      body: webhookEndpointInput,
      response: { 201: webhookEndpointWithSecret, ...errors },
    },
    handler: async (request, reply) => reply.code(201).send(await createWebhookEndpoint(deps, request.staff!, request.body)),
  });
  app.put(`${WEBHOOKS_API}:id`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: an endpoint changed (enabling it again clears why Boardwalk disabled it)',
      params: webhookEndpointParams,
      body: webhookEndpointInput,
      response: { 200: webhookEndpoint, ...errors },
    },
    handler: (request) => updateWebhookEndpoint(deps, request.staff!, request.params.id, request.body),
  });
  app.delete(`${WEBHOOKS_API}:id`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: an endpoint and its messages deleted',
      params: webhookEndpointParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await deleteWebhookEndpoint(deps, request.staff!, request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.post(`${WEBHOOKS_API}:id/rotate`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: a new signing secret (in this answer only); the previous one also signs for 24 hours',
      params: webhookEndpointParams,
      response: { 200: webhookEndpointWithSecret, ...errors },
    },
    handler: (request) => rotateWebhookSecret(deps, request.staff!, request.params.id),
  });
  app.post(`${WEBHOOKS_API}:id/test`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: a test message (webhook.test) to this endpoint',
      params: webhookEndpointParams,
      response: { 202: webhookMessage, ...errors },
    },
    handler: async (request, reply) => reply.code(202).send(await sendTestMessage(deps, request.staff!, request.params.id)),
  });
  app.get(`${WEBHOOKS_API}:id/messages`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: the endpoint’s 50 latest messages, newest first',
      params: webhookEndpointParams,
      response: { 200: webhookMessageList, ...errors },
    },
    handler: (request) => listWebhookMessages(deps, request.params.id),
  });
  app.post(`${WEBHOOKS_API}messages/:messageId/resend`, {
    ...guarded,
    schema: {
      tags,
      summary: 'Webhooks: a dead message sent again',
      params: webhookMessageParams,
      response: { 202: webhookMessage, ...errors },
    },
    handler: async (request, reply) => reply.code(202).send(await resendWebhookMessage(deps, request.staff!, request.params.messageId)),
  });
};
