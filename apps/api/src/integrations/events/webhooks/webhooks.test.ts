// Webhooks end to end, with a receiver written here that verifies every delivery with the
// `standardwebhooks` library: each event type goes, with its documented payload, to the
// endpoints subscribed to it and no other; a failing receiver gets the message again with the
// same webhook-id on the schedule; one down for the whole schedule leaves a dead message that
// Resend delivers; 410 Gone and 5 days of failures disable the endpoint (the team is mailed);
// a subject's events arrive in order; after a rotation both secrets verify for 24 hours, then
// only the new one.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_EXAMPLES, EVENT_TYPES, eventData, integrationEvent, type EventType } from '@boardwalk/contract/events';
import { WEBHOOK_RETRY_SECONDS, WEBHOOKS_API, type WebhookEndpoint, type WebhookMessage } from '@boardwalk/contract/webhooks';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../../test-support/test-app.ts';
import { moveClockToRetries, startWebhookReceiver, type WebhookReceiver } from '../../../../test-support/webhooks.ts';
import { recordEvent, type EventSubject } from '../../../platform/events.ts';

const TEAM_EMAIL = 'operations-team@example.com';

let t: TestApp;
let admin: StaffLogin;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // Retries timed on their schedule: the queue looks for due ones every half second.
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', TEAM_EMAIL, DELIVERY_POLL_SECONDS: '0.5' } });
  admin = await loginAs(t.app, { accessLevel: 100 });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
afterEach(async () => {
  // Each test's endpoints stop receiving: the next test's events are its own.
  await t.database.db.update(schema.webhookEndpoints).set({ active: false });
  receiver.answer = () => 200;
});

async function createEndpoint(path: string, eventTypes: EventType[] | null = null) {
  const res = await t.app.inject({
    method: 'POST',
    url: WEBHOOKS_API,
    headers: admin.headers,
    payload: { url: receiver.url(path), description: `CRM ${path}`, eventTypes },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { endpoint, secret } = res.json<{ endpoint: WebhookEndpoint; secret: string }>();
  receiver.secrets.set(path, secret);
  return endpoint;
}

const record = <T extends EventType>(type: T, subject: EventSubject, data = EVENT_EXAMPLES[type]) =>
  t.database.db.transaction((tx) => recordEvent(tx, type, subject, data));

const messagesOf = async (endpointId: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${WEBHOOKS_API}${endpointId}/messages`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ messages: WebhookMessage[] }>().messages;
};

const messageRow = async (endpointId: string) => {
  const [row] = await t.database.db.select().from(schema.webhookMessages).where(eq(schema.webhookMessages.endpointId, endpointId));
  return row!;
};

const endpointRow = async (id: string) => {
  const [row] = await t.database.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id));
  return row!;
};

const arrivals = (path: string, n: number, timeout = 20_000) => expect.poll(() => receiver.at(path).length, { timeout }).toBe(n);

describe('webhooks', () => {
  it('sends each event type with its documented payload, signed, to the endpoints subscribed to it and no other', async () => {
    const all = await createEndpoint('/all');
    await createEndpoint('/shares', ['share.created', 'share.stopped']);
    for (const type of EVENT_TYPES) await record(type, 'ticket:8400000100000001');
    // The cause of one: a guest's registration.
    await putOrder(t.app, '85000001', anOrder([{ barcode: '8500000100000001' }]));
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/register/',
      payload: {
        orderId: '85000001',
        barcode: '8500000100000001',
        firstName: 'Rosa',
        lastName: 'Diaz',
        email: 'rosa@example.com',
        phone: '3125550100',
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);

    await arrivals('/all', EVENT_TYPES.length + 1);
    await arrivals('/shares', 2);
    const got = receiver.at('/all');
    for (const delivery of got) {
      expect(delivery.verifiedWith).toEqual(['/all']);
      expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      const payload = integrationEvent.parse(delivery.payload);
      eventData[payload.type].parse(payload.data);
    }
    // The examples are one subject's events: they arrive in the order they happened.
    const registration = got.find((d) => d.payload.data.orderId === '85000001')!;
    expect(got.filter((d) => d !== registration).map((d) => [d.payload.type, d.payload.data])).toEqual(
      EVENT_TYPES.map((type) => [type, EVENT_EXAMPLES[type]]),
    );
    expect(registration.payload).toMatchObject({
      type: 'guest.registered',
      version: 1,
      data: { orderId: '85000001', barcode: '8500000100000001', firstName: 'Rosa', email: 'rosa@example.com' },
    });
    // The same events as the feed lists, with the same ids.
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/events?limit=1000',
      headers: { authorization: 'Bearer test-ticketing-secret-0123456789' },
    });
    const ids = new Set(feed.json<{ events: { id: string }[] }>().events.map((e) => e.id));
    expect(got.every((d) => ids.has(d.payload.id))).toBe(true);
    expect(receiver.at('/shares').map((d) => d.payload.type)).toEqual(['share.created', 'share.stopped']);
    expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(got.length);

    // A batch's attempts are recorded once its last answer is in: the last arrival comes first.
    await expect
      .poll(async () => (await messagesOf(all.id)).map((m) => `${m.state} ${m.attempts} ${m.lastStatus}`))
      .toEqual(Array.from({ length: EVENT_TYPES.length + 1 }, () => 'delivered 1 200'));
  });

  it('retries a failing receiver on the schedule with the same webhook-id, and delivers it once it answers', async () => {
    const endpoint = await createEndpoint('/flaky');
    receiver.answer = (d) => (receiver.at(d.path).length <= 3 ? 503 : 200);
    await record('share.stopped', 'ticket:8400000100000002');

    const waits: number[] = [];
    for (let failures = 1; failures <= 3; failures++) {
      await arrivals('/flaky', failures);
      await expect.poll(async () => (await messageRow(endpoint.id)).attempts).toBe(failures);
      const row = await messageRow(endpoint.id);
      expect(row.state).toBe('retrying');
      expect(row.lastStatus).toBe(503);
      waits.push(Math.round((row.nextAttemptAt!.getTime() - row.updatedAt.getTime()) / 1000));
      // The first retry comes by itself after 5 s; the later ones when the clock is moved.
      if (failures > 1) await moveClockToRetries(t.database);
    }
    expect(waits).toEqual(WEBHOOK_RETRY_SECONDS.slice(0, 3));
    await arrivals('/flaky', 4);
    await expect.poll(async () => (await messageRow(endpoint.id)).state).toBe('delivered');
    const got = receiver.at('/flaky');
    expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((d) => d.payload.id)).size).toBe(1);
    expect(got.every((d) => d.verifiedWith.includes('/flaky'))).toBe(true);
    // The first retry waited its 5 seconds.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(4_500);
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
  });

  it('leaves a dead message after the whole schedule (clock moved), which Resend delivers', async () => {
    const endpoint = await createEndpoint('/down');
    receiver.answer = () => 500;
    await record('loyalty.tier_changed', 'member:7700000000000042');
    const tries = WEBHOOK_RETRY_SECONDS.length + 1;
    for (let n = 1; n < tries; n++) {
      await arrivals('/down', n);
      await expect.poll(async () => (await messageRow(endpoint.id)).attempts).toBe(n);
      await moveClockToRetries(t.database);
    }
    await arrivals('/down', tries);
    await expect.poll(async () => (await messageRow(endpoint.id)).state).toBe('dead');
    const [dead] = await messagesOf(endpoint.id);
    expect(dead).toMatchObject({ state: 'dead', attempts: tries, lastStatus: 500 });
    expect((await endpointRow(endpoint.id)).failingSince).not.toBeNull();

    receiver.answer = () => 200;
    const resend = await t.app.inject({ method: 'POST', url: `${WEBHOOKS_API}messages/${dead!.id}/resend`, headers: admin.headers });
    expect(resend.statusCode, resend.body).toBe(202);
    await arrivals('/down', tries + 1);
    await expect.poll(async () => (await messageRow(endpoint.id)).state).toBe('delivered');
    expect(new Set(receiver.at('/down').map((d) => d.headers['webhook-id'])).size).toBe(1);
    // A delivered message is not resent.
    const again = await t.app.inject({ method: 'POST', url: `${WEBHOOKS_API}messages/${dead!.id}/resend`, headers: admin.headers });
    expect(again.statusCode).toBe(409);
  });

  it('disables an endpoint that answers 410 Gone; its later messages are not sent', async () => {
    const endpoint = await createEndpoint('/gone');
    receiver.answer = () => 410;
    await record('share.stopped', 'ticket:8400000100000003');
    await arrivals('/gone', 1);
    await expect.poll(async () => (await endpointRow(endpoint.id)).active).toBe(false);
    expect(await endpointRow(endpoint.id)).toMatchObject({ disabledReason: 'gone' });
    expect((await messageRow(endpoint.id)).state).toBe('dead');
    await record('share.stopped', 'ticket:8400000100000004');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('disables an endpoint whose every attempt failed for 5 days, and mails the team', async () => {
    const endpoint = await createEndpoint('/failing');
    receiver.answer = () => 502;
    await t.database.db
      .update(schema.webhookEndpoints)
      .set({ failingSince: sql`now() - interval '5 days 1 minute'` })
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    await record('share.stopped', 'ticket:8400000100000005');
    await arrivals('/failing', 1);
    await expect.poll(async () => (await endpointRow(endpoint.id)).disabledReason).toBe('failing');
    const mails = await t.database.db.select().from(schema.outbox).where(eq(schema.outbox.to, TEAM_EMAIL));
    expect(mails.map((m) => m.subject)).toEqual(['A webhook endpoint was disabled']);
    // Enabled again by staff: the streak and the reason are cleared.
    const res = await t.app.inject({
      method: 'PUT',
      url: `${WEBHOOKS_API}${endpoint.id}`,
      headers: admin.headers,
      payload: { url: endpoint.url, description: endpoint.description, eventTypes: null, active: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WebhookEndpoint>()).toMatchObject({ active: true, disabledReason: null, failingSince: null });
  });

  it('delivers a subject’s events in order: a later one waits while an earlier one is retried; other subjects go on', async () => {
    const endpoint = await createEndpoint('/ordered');
    receiver.answer = (d) =>
      d.payload.type === 'share.created' && receiver.at(d.path).filter((r) => r.payload.type === 'share.created').length === 1 ? 503 : 200;
    await record('share.created', 'ticket:8400000100000006');
    await record('share.stopped', 'ticket:8400000100000006');
    await record('wristband.activated', 'ticket:8400000100000007');
    // The other subject's event is delivered while the first is retrying; the second of the subject waits.
    // (Up to 10 s: a busy machine's worker may take longer than the poll's default second.)
    await expect
      .poll(
        () =>
          receiver
            .at('/ordered')
            .map((d) => d.payload.type)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['share.created', 'wristband.activated']);
    // Recorded once the attempts of the worker's batch are all answered.
    await expect
      .poll(async () => (await messagesOf(endpoint.id)).map((m) => [m.type, m.state]), { timeout: 10_000 })
      .toEqual(
        expect.arrayContaining([
          ['share.stopped', 'waiting'],
          ['share.created', 'retrying'],
        ]),
      );
    await arrivals('/ordered', 4, 30_000);
    const order = receiver.at('/ordered').map((d) => d.payload.type);
    expect(order.indexOf('share.stopped')).toBeGreaterThan(order.lastIndexOf('share.created'));
    await expect.poll(async () => (await messagesOf(endpoint.id)).every((m) => m.state === 'delivered')).toBe(true);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const endpoint = await createEndpoint('/rotated');
    const old = receiver.secrets.get('/rotated')!;
    const res = await t.app.inject({ method: 'POST', url: `${WEBHOOKS_API}${endpoint.id}/rotate`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const { secret, endpoint: rotated } = res.json<{ secret: string; endpoint: WebhookEndpoint }>();
    expect(secret).not.toBe(old);
    expect(Date.parse(rotated.previousSecretUntil!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    receiver.secrets.set('/rotated-old', old);
    receiver.secrets.set('/rotated-new', secret);
    await record('share.stopped', 'ticket:8400000100000008');
    await arrivals('/rotated', 1);
    const [first] = receiver.at('/rotated');
    expect(String(first!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(first!.verifiedWith).toEqual(expect.arrayContaining(['/rotated-old', '/rotated-new']));

    // 24 hours later (clock moved): only the new secret signs.
    await t.database.db
      .update(schema.webhookEndpoints)
      .set({ previousSecretUntil: sql`now() - interval '1 second'` })
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    await record('share.stopped', 'ticket:8400000100000009');
    await arrivals('/rotated', 2);
    const second = receiver.at('/rotated')[1]!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(second.verifiedWith).toContain('/rotated-new');
    expect(second.verifiedWith).not.toContain('/rotated-old');
    for (const name of ['/rotated', '/rotated-old', '/rotated-new']) receiver.secrets.delete(name);
  });

  it('sends a test event to the one endpoint, and counts attempts in /metrics', async () => {
    const endpoint = await createEndpoint('/test-event');
    await createEndpoint('/bystander');
    const res = await t.app.inject({ method: 'POST', url: `${WEBHOOKS_API}${endpoint.id}/test`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(202);
    await arrivals('/test-event', 1);
    expect(receiver.at('/test-event')[0]!.payload).toMatchObject({ type: 'webhook.test', version: 1 });
    expect(receiver.at('/test-event')[0]!.verifiedWith).toEqual(['/test-event']);
    expect(receiver.at('/bystander')).toHaveLength(0);
    await expect.poll(async () => (await messagesOf(endpoint.id))[0]?.state).toBe('delivered');
    const list = await t.app.inject({ method: 'GET', url: WEBHOOKS_API, headers: admin.headers });
    const listed = list.json<{ endpoints: WebhookEndpoint[] }>().endpoints.find((e) => e.id === endpoint.id)!;
    expect(listed.last24h).toEqual({ delivered: 1, attempted: 1, successRate: 1 });

    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain(`boardwalk_webhook_attempts_total{endpoint="${endpoint.id}",type="webhook.test",outcome="delivered"} 1`);
    expect(metrics).toMatch(new RegExp(`boardwalk_webhook_attempt_duration_seconds_count\\{endpoint="${endpoint.id}"\\} 1`));
  });
});
