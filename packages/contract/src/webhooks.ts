// The Webhooks tab's calls (staff): the operator's endpoints, each receiving the events of the
// types it chose (docs/integration-api.md, "Webhooks"), and the messages sent to each.
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from './events.ts';

export const WEBHOOKS_API = '/api/admin/webhooks/';

/** A staff member's test message: its type, sent only to the endpoint it was asked for. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_MESSAGE_STATES = ['waiting', 'pending', 'retrying', 'delivered', 'dead'] as const;
export type WebhookMessageState = (typeof WEBHOOK_MESSAGE_STATES)[number];
export const WEBHOOK_MESSAGE_STATE_LABELS: Record<WebhookMessageState, string> = {
  waiting: 'Waiting for an earlier message',
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  dead: 'Dead',
};

/** Retries after the first attempt, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the message is dead. */
export const WEBHOOK_RETRY_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** What a staff member types for an endpoint. */
export const webhookEndpointInput = z.object({
  url: z.string().trim().min(1, 'Enter the URL').max(2000, 'The URL must be at most 2,000 characters'),
  description: z.string().trim().max(200, 'The description must be at most 200 characters').default(''),
  /** The event types it receives; null: every type (including types added later). */
  eventTypes: z
    .array(z.enum(EVENT_TYPES as [EventType, ...EventType[]]))
    .min(1, 'Choose at least one event type, or all of them')
    .nullable(),
  active: z.boolean().default(true),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointInput>;

export const webhookEndpoint = z.object({
  id: z.string().uuid(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()).nullable(),
  active: z.boolean(),
  /** Why Boardwalk disabled it: 'gone' (it answered 410 Gone) or 'failing' (every attempt failed for 5 days). */
  disabledReason: z.enum(['gone', 'failing']).nullable(),
  /** Since when every attempt has failed. */
  failingSince: z.iso.datetime().nullable(),
  /** After a rotation: until when deliveries also carry the previous secret's signature. */
  previousSecretUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  /** The messages made in the last 24 hours: those tried, those delivered, and the rate (null when none was tried). */
  last24h: z.object({ delivered: z.number().int(), attempted: z.number().int(), successRate: z.number().nullable() }),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

export const webhookEndpointList = z.object({ endpoints: z.array(webhookEndpoint), eventTypes: z.array(z.string()) });

/** A created endpoint or a rotated secret: the secret is shown this once, never again. */
export const webhookEndpointWithSecret = z.object({ endpoint: webhookEndpoint, secret: z.string() });

export const webhookMessage = z.object({
  id: z.string(),
  type: z.string(),
  state: z.enum(WEBHOOK_MESSAGE_STATES),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookMessage = z.infer<typeof webhookMessage>;

export const webhookMessageList = z.object({ messages: z.array(webhookMessage) });

export const webhookEndpointParams = z.object({ id: z.string().uuid('Unknown endpoint') });
export const webhookMessageParams = z.object({ messageId: z.string().uuid('Unknown message') });
