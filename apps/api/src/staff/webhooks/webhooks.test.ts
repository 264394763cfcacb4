// The Webhooks tab's calls: Webhooks Manage guards them (no session 401, without it 403); bad
// input is a 400 naming the field that writes nothing; only https is accepted unless private
// networks are allowed; the secret is answered at creation and rotation only, stored sealed,
// and never written to the audit log or the server's log (nor is the URL's path, which may
// carry a receiver's token).
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_API, type WebhookEndpoint } from '@boardwalk/contract/webhooks';
import * as schema from '@boardwalk/db/schema';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

const URL_TOKEN = 'tok-3b1e9f0a7c55d2e8';
const CRM_URL = `https://crm.example.com/hooks/boardwalk?token=${URL_TOKEN}`;

let t: TestApp;
let admin: StaffLogin;
let clerk: StaffLogin;
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
  admin = await loginAs(t.app, { accessLevel: 100 });
  clerk = await loginAs(t.app, { accessLevel: 10 });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as: StaffLogin | null = admin) =>
  t.app.inject({ method, url, ...(as && { headers: as.headers }), ...(payload && { payload }) });

const endpointCount = async () => (await t.database.db.select({ n: count() }).from(schema.webhookEndpoints))[0]!.n;

describe('the Webhooks tab calls', () => {
  it('need a session (401) and Webhooks Manage (403)', async () => {
    expect((await call('GET', WEBHOOKS_API, undefined, null)).statusCode).toBe(401);
    for (const [method, url] of [
      ['GET', WEBHOOKS_API],
      ['POST', WEBHOOKS_API],
      ['POST', `${WEBHOOKS_API}${crypto.randomUUID()}/rotate`],
      ['POST', `${WEBHOOKS_API}messages/${crypto.randomUUID()}/resend`],
    ] as const) {
      const res = await call(method, url, method === 'POST' ? { url: CRM_URL, eventTypes: null } : undefined, clerk);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await endpointCount()).toBe(0);
  });

  it('show an address saved with credentials before they were refused masked', async () => {
    const [row] = await t.database.db
      .insert(schema.webhookEndpoints)
      .values({ url: 'https://crm-user:s3cret-pass@crm.example.com/old', secret: 'sealed', eventTypes: null })
      .returning();
    const { body } = await call('GET', WEBHOOKS_API);
    expect(body).toContain('https://***:***@crm.example.com/old');
    expect(body).not.toContain('s3cret-pass');
    expect(body).not.toContain('crm-user');
    await t.database.db.delete(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, row!.id));
  });

  it('refuse bad input with a 400 naming the field, and write nothing', async () => {
    const bad = [
      [{ url: '', eventTypes: null }, 'url', 'Enter the URL'],
      [{ url: 'ftp://crm.example.com/hook', eventTypes: null }, 'url', 'The URL must start with https://'],
      [{ url: 'http://crm.example.com/hook', eventTypes: null }, 'url', 'The URL must start with https://'],
      [{ url: 'not a url', eventTypes: null }, 'url', 'Enter a full URL, starting with https://'],
      [{ url: 'https://user:pass@crm.example.com/hook', eventTypes: null }, 'url', 'The URL must not hold a user name or password'],
      [{ url: CRM_URL, eventTypes: [] }, 'eventTypes', 'Choose at least one event type, or all of them'],
      [{ url: CRM_URL, eventTypes: ['ticket.sold'] }, 'eventTypes', ''],
      [{ url: CRM_URL }, 'eventTypes', ''],
    ] as const;
    for (const [payload, field, message] of bad) {
      const res = await call('POST', WEBHOOKS_API, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toContain(field);
      if (message) expect(res.json().message).toContain(message);
    }
    expect((await call('PUT', `${WEBHOOKS_API}not-a-uuid`, { url: CRM_URL, eventTypes: null })).statusCode).toBe(400);
    expect((await call('PUT', `${WEBHOOKS_API}${crypto.randomUUID()}`, { url: CRM_URL, eventTypes: null })).statusCode).toBe(404);
    expect((await call('DELETE', `${WEBHOOKS_API}${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect(await endpointCount()).toBe(0);
  });

  it('answer the secret at creation and rotation only; it is stored sealed and never logged or audited', async () => {
    const created = await call('POST', WEBHOOKS_API, { url: CRM_URL, description: 'Salesforce', eventTypes: ['guest.registered'] });
    expect(created.statusCode, created.body).toBe(201);
    const { endpoint, secret } = created.json<{ endpoint: WebhookEndpoint; secret: string }>();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url: CRM_URL, description: 'Salesforce', eventTypes: ['guest.registered'], active: true });

    const list = await call('GET', WEBHOOKS_API);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret.slice(6));
    expect(list.json<{ endpoints: WebhookEndpoint[] }>().endpoints).toHaveLength(1);
    const [row] = await t.database.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, endpoint.id));
    expect(row!.secret).toMatch(/^v1\./);
    expect(row!.secret).not.toContain(secret.slice(6));

    const rotated = await call('POST', `${WEBHOOKS_API}${endpoint.id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json<{ secret: string }>().secret;
    expect(next).not.toBe(secret);
    expect((await call('GET', WEBHOOKS_API)).body).not.toContain(next.slice(6));

    const updated = await call('PUT', `${WEBHOOKS_API}${endpoint.id}`, {
      url: CRM_URL,
      description: 'Salesforce CRM',
      eventTypes: null,
      active: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ eventTypes: null, active: false });
    // A disabled endpoint sends no test event.
    expect((await call('POST', `${WEBHOOKS_API}${endpoint.id}/test`)).statusCode).toBe(409);

    const audit = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.resource, 'webhooks'));
    expect(audit.map((a) => a.action)).toEqual(['create', 'rotate', 'update']);
    expect(audit[0]!.after).toMatchObject({ host: 'crm.example.com', description: 'Salesforce' });
    const written = JSON.stringify(audit) + logLines.join('\n');
    for (const leaked of [secret, secret.slice(6), next.slice(6), URL_TOKEN]) expect(written).not.toContain(leaked);

    expect((await call('DELETE', `${WEBHOOKS_API}${endpoint.id}`)).statusCode).toBe(204);
    expect(await endpointCount()).toBe(0);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  it('accepts plain http (an on-premises CRM), which is refused without it', async () => {
    const inside = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    try {
      const staff = await loginAs(inside.app, { accessLevel: 100 });
      const res = await inside.app.inject({
        method: 'POST',
        url: WEBHOOKS_API,
        headers: staff.headers,
        payload: { url: 'http://10.0.4.12:8080/boardwalk', eventTypes: null },
      });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await inside.close();
    }
  });
});
