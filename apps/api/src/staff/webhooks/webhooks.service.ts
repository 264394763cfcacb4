// The Webhooks tab's use cases: the operator's endpoints (the secret made here, shown once at
// creation and at each rotation, kept sealed), their recent messages, a test message and a
// dead message sent again. Each change is audited, with the URL's host only (a URL may carry a
// receiver's token) and never a secret.
import { randomUUID } from 'node:crypto';
import { TEST_EVENT_TYPE, type WebhookEndpoint, type WebhookEndpointInput, type WebhookMessage } from '@boardwalk/contract/webhooks';
import { EVENT_TYPES } from '@boardwalk/contract/events';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import type { Jobs } from '../../platform/jobs/jobs.plugin.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { queueAttempts, secretPurpose } from '../../integrations/events/webhooks/webhook-delivery.ts';
import { newWebhookSecret, urlProblem } from '../../integrations/events/webhooks/webhook-sender.ts';
import {
  countLastDay,
  deleteEndpoint,
  findEndpoint,
  findMessage,
  insertEndpoint,
  insertMessages,
  listEndpoints,
  listMessages,
  reviveDeadMessage,
  updateEndpoint,
  type EndpointRow,
  type MessageRow,
} from '../../integrations/events/webhooks/webhooks.repo.ts';
import { recordAudit, type AuditAction } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';

export const WEBHOOKS_AUDIT_RESOURCE = 'webhooks';

/** How long after a rotation deliveries also carry the previous secret's signature. */
export const ROTATION_OVERLAP_HOURS = 24;

/** Messages the tab lists per endpoint, newest first. */
export const RECENT_MESSAGES = 50;

export interface WebhooksDeps {
  db: Executor;
  jobs: Pick<Jobs, 'insert'>;
  keys: Pick<Keys, 'seal'>;
  allowPrivateNetworks: boolean;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * The address as the tab shows it: one saved before credentials were refused shows them masked
 * (each send refuses it, so the tab says why and staff edit it).
 */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '***';
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function toEndpoint(row: EndpointRow, lastDay: { delivered: number; attempted: number } | undefined): WebhookEndpoint {
  const { delivered = 0, attempted = 0 } = lastDay ?? {};
  return {
    id: row.id,
    url: shownUrl(row.url),
    description: row.description,
    eventTypes: row.eventTypes,
    active: row.active,
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    last24h: { delivered, attempted, successRate: attempted > 0 ? delivered / attempted : null },
  };
}

const toMessage = (row: MessageRow): WebhookMessage => ({
  id: row.id,
  type: row.type,
  state: row.state,
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  lastLatencyMs: row.lastLatencyMs,
  lastError: row.lastError,
  nextAttemptAt: row.state === 'retrying' ? iso(row.nextAttemptAt) : null,
  deliveredAt: iso(row.deliveredAt),
  createdAt: row.createdAt.toISOString(),
});

function checkUrl(deps: WebhooksDeps, url: string) {
  const problem = urlProblem(url, deps.allowPrivateNetworks);
  if (problem) throw new AppError('VALIDATION_FAILED', problem, { fields: [{ path: 'url', message: problem }] });
}

/** What an audit entry says of an endpoint: never its URL's path or query, nor a secret. */
const audited = (row: EndpointRow) => ({
  host: new URL(row.url).host,
  description: row.description,
  eventTypes: row.eventTypes,
  active: row.active,
});

const audit = (
  tx: Executor,
  staff: StaffActor,
  action: AuditAction,
  recordId: string,
  before: EndpointRow | null,
  after: EndpointRow | null,
) =>
  recordAudit(tx, {
    teamMemberGuid: staff.teamMemberGuid,
    username: staff.username,
    action,
    resource: WEBHOOKS_AUDIT_RESOURCE,
    recordId,
    before: before && audited(before),
    after: after && audited(after),
  });

async function endpointOrThrow(db: Executor, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'There is no such webhook endpoint.');
  return row;
}

export async function listWebhookEndpoints(deps: WebhooksDeps) {
  const [rows, lastDay] = await Promise.all([listEndpoints(deps.db), countLastDay(deps.db)]);
  return { endpoints: rows.map((row) => toEndpoint(row, lastDay.get(row.id))), eventTypes: EVENT_TYPES };
}

/** A new endpoint with a new secret, answered this once. */
export async function createWebhookEndpoint(deps: WebhooksDeps, staff: StaffActor, input: WebhookEndpointInput) {
  checkUrl(deps, input.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const row = await deps.db.transaction(async (tx) => {
    const created = await insertEndpoint(tx, { id, ...input, secret: deps.keys.seal(secretPurpose(id), secret) });
    await audit(tx, staff, 'create', id, null, created);
    return created;
  });
  return { endpoint: toEndpoint(row, undefined), secret };
}

/** An endpoint changed; enabling it again clears why it was disabled and its failing streak. */
export async function updateWebhookEndpoint(deps: WebhooksDeps, staff: StaffActor, id: string, input: WebhookEndpointInput) {
  checkUrl(deps, input.url);
  return deps.db.transaction(async (tx) => {
    const before = await endpointOrThrow(tx, id);
    const enabling = input.active && !before.active;
    const row = (await updateEndpoint(tx, id, { ...input, ...(enabling && { disabledReason: null, failingSince: null }) }))!;
    await audit(tx, staff, 'update', id, before, row);
    return toEndpoint(row, (await countLastDay(tx)).get(id));
  });
}

export async function deleteWebhookEndpoint(deps: WebhooksDeps, staff: StaffActor, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await endpointOrThrow(tx, id);
    await deleteEndpoint(tx, id);
    await audit(tx, staff, 'delete', id, before, null);
  });
}

/** A new secret, answered this once; the previous one still signs for ROTATION_OVERLAP_HOURS. */
export async function rotateWebhookSecret(deps: WebhooksDeps, staff: StaffActor, id: string) {
  const secret = newWebhookSecret();
  const row = await deps.db.transaction(async (tx) => {
    const before = await endpointOrThrow(tx, id);
    const rotated = (await updateEndpoint(tx, id, {
      secret: deps.keys.seal(secretPurpose(id), secret),
      previousSecret: before.secret,
      previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_HOURS * 3_600_000),
    }))!;
    await audit(tx, staff, 'rotate', id, null, null);
    return rotated;
  });
  return { endpoint: toEndpoint(row, undefined), secret };
}

export async function listWebhookMessages(deps: WebhooksDeps, endpointId: string) {
  await endpointOrThrow(deps.db, endpointId);
  return { messages: (await listMessages(deps.db, endpointId, RECENT_MESSAGES)).map(toMessage) };
}

/** A test message (`webhook.test`) to this endpoint only, sent like any other. */
export async function sendTestMessage(deps: WebhooksDeps, staff: StaffActor, endpointId: string): Promise<WebhookMessage> {
  return deps.db.transaction(async (tx) => {
    const endpoint = await endpointOrThrow(tx, endpointId);
    if (!endpoint.active) throw new AppError('CONFLICT', 'The endpoint is disabled: enable it to send a test event.');
    // Its own subject: a test message waits for no event.
    const [message] = await insertMessages(tx, [
      { endpointId, eventId: null, type: TEST_EVENT_TYPE, subject: `test:${randomUUID()}`, state: 'pending' },
    ]);
    await queueAttempts(deps.jobs, tx, [message!.id]);
    await audit(tx, staff, 'test', endpointId, null, null);
    return toMessage((await findMessage(tx, message!.id))!);
  });
}

/** A dead message sent again, its attempts counted afresh. */
export async function resendWebhookMessage(deps: WebhooksDeps, staff: StaffActor, messageId: string): Promise<WebhookMessage> {
  return deps.db.transaction(async (tx) => {
    const found = await findMessage(tx, messageId);
    if (!found) throw new AppError('NOT_FOUND', 'There is no such message.');
    const endpoint = await endpointOrThrow(tx, found.endpointId);
    if (!endpoint.active) throw new AppError('CONFLICT', 'The endpoint is disabled: enable it to resend its messages.');
    const revived = await reviveDeadMessage(tx, messageId);
    if (!revived) throw new AppError('CONFLICT', 'Only a dead message can be resent; this one is still being delivered or was delivered.');
    await queueAttempts(deps.jobs, tx, [messageId]);
    await audit(tx, staff, 'resend', found.endpointId, null, null);
    return toMessage(revived);
  });
}
