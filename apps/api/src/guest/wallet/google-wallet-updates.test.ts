// With Google credentials configured, ticket changes update the saved Google Wallet object
// through the REST API: here against a local double of Google's token endpoint and
// walletobjects API, named by the key file's token_uri and GOOGLE_WALLET_API_URL.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenericObject } from '../../integrations/google-wallet/google-wallet.ts';
import { anOrder, putOrder } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const ISSUER_ID = '3388000000022123456';
const CLIENT_EMAIL = 'wallet@boardwalk-test.iam.gserviceaccount.com';
const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';

interface ObjectCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: GenericObject;
}

/** The double: a token endpoint (JWT-bearer grant) and genericObject PUT, recording the calls. */
class GoogleDouble {
  server!: Server;
  baseUrl = '';
  issuedTokens: string[] = [];
  tokenAssertions: Record<string, unknown>[] = [];
  objectCalls: ObjectCall[] = [];
  /** Object ids a guest "saved": others answer 404 like Google. */
  saved = new Set<string>();
  failWith: number | null = null;

  constructor(readonly publicKey: ReturnType<typeof generateKeyPairSync>['publicKey']) {}

  async start() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body }) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        },
        (err: Error) => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'invalid_grant', error_description: err.message }));
        },
      );
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(raw);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') throw new Error('wrong grant_type');
      const { payload } = await jwtVerify(form.get('assertion') ?? '', this.publicKey, { issuer: CLIENT_EMAIL });
      this.tokenAssertions.push(payload);
      const token = `ya29.double-${randomBytes(8).toString('hex')}`;
      this.issuedTokens.push(token);
      return { status: 200, body: { access_token: token, expires_in: 3600, token_type: 'Bearer' } };
    }
    const match = /^\/walletobjects\/v1\/genericObject\/([^/]+)$/.exec(url.pathname);
    if (match && (req.method === 'PUT' || req.method === 'PATCH')) {
      const id = decodeURIComponent(match[1]!);
      const body = JSON.parse(raw) as GenericObject;
      this.objectCalls.push({ method: req.method, path: url.pathname, authorization: req.headers.authorization, body });
      if (this.failWith) return { status: this.failWith, body: { error: { code: this.failWith, message: 'backend error' } } };
      if (!this.saved.has(id)) return { status: 404, body: { error: { code: 404, message: `Resource not found: ${id}` } } };
      return { status: 200, body };
    }
    return { status: 404, body: { error: { code: 404, message: 'no such route' } } };
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let t: TestApp;
let google: GoogleDouble;
let dir: string;
let logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
type LogLine = { level: number; msg: string; objectId?: string; err?: string };
const logs = () => logLines.map((l) => JSON.parse(l) as LogLine);

const dayTicket = (barcode: string, cash: number) => ({ barcode, product: 'Day Ticket', cash, holder: { firstName: 'Ana', lastName: 'Lopez' } });

async function issueLink(orderId: string, barcode: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: { orderId, barcode }, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  const jwt = res.body.slice(SAVE_PREFIX.length);
  const { payload } = await jwtVerify(jwt, google.publicKey, { audience: 'google', issuer: CLIENT_EMAIL });
  return (payload as unknown as { payload: { genericObjects: GenericObject[] } }).payload.genericObjects[0]!.id;
}

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey);
  await google.start();
  dir = await mkdtemp(join(tmpdir(), 'bw-google-rest-'));
  const keyFile = join(dir, 'service-account.json');
  await writeFile(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'boardwalk-test',
      private_key_id: 'test-key-1',
      private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }),
      client_email: CLIENT_EMAIL,
      token_uri: `${google.baseUrl}/token`,
    }),
  );
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL: 'https://wallet.example.com',
      GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
      GOOGLE_WALLET_KEY_FILE: keyFile,
      GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
      LOG_LEVEL: 'debug',
    },
    logStream: { write: (line) => void logLines.push(line) },
  });
  await putOrder(t.app, '40000001', anOrder([dayTicket('4000000000000011', 12.5)]));
  await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 5)]));
  await putOrder(t.app, '40000003', anOrder([dayTicket('4000000000000035', 5)]));
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  logLines = [];
  google.objectCalls = [];
  google.failWith = null;
});

describe('Google Wallet object updates with credentials configured', () => {
  it('signs links with the configured key and issuer id, and generates no development key', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    expect(objectId).toMatch(new RegExp(`^${ISSUER_ID}\\.[0-9a-f-]{36}$`));
    expect(logLines.join('\n')).not.toMatch(/development key/);
  });

  it('sends the object with the new balance to the REST API, with the bearer token the token endpoint issued', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    google.saved.add(objectId);
    await putOrder(t.app, '40000001', anOrder([dayTicket('4000000000000011', 40)]));

    expect(google.objectCalls).toHaveLength(1);
    const call = google.objectCalls[0]!;
    expect(call.method).toBe('PUT');
    expect(call.path).toBe(`/walletobjects/v1/genericObject/${objectId}`);
    expect(google.issuedTokens).toHaveLength(1);
    expect(call.authorization).toBe(`Bearer ${google.issuedTokens[0]}`);
    expect(google.tokenAssertions[0]).toMatchObject({ iss: CLIENT_EMAIL, scope: 'https://www.googleapis.com/auth/wallet_object.issuer' });
    expect(call.body).toMatchObject({ id: objectId, classId: `${ISSUER_ID}.park-ticket`, state: 'ACTIVE', barcode: { value: '4000000000000011' } });
    expect(call.body.textModulesData?.find((m) => m.id === 'balance')?.body).toBe('$40.00');
    expect(logs().some((l) => l.msg === 'Google Wallet object updated' && l.objectId === objectId)).toBe(true);
  });

  it('reuses the token for the next update and follows a refund', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    await putOrder(t.app, '40000001', anOrder([{ ...dayTicket('4000000000000011', 40), refunded: true }]));
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]!.body).toMatchObject({ id: objectId, state: 'INACTIVE' });
    expect(google.issuedTokens).toHaveLength(1);
    expect(google.objectCalls[0]!.authorization).toBe(`Bearer ${google.issuedTokens[0]}`);
  });

  it('ignores quietly an object no guest saved (404)', async () => {
    const objectId = await issueLink('40000002', '4000000000000028');
    await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 6)]));
    expect(google.objectCalls.map((c) => c.body.id)).toEqual([objectId]);
    expect(logs().filter((l) => l.level >= 40)).toEqual([]);
  });

  it('sends nothing for a ticket whose Google link was never handed out', async () => {
    await putOrder(t.app, '40000003', anOrder([dayTicket('4000000000000035', 9)]));
    expect(google.objectCalls).toEqual([]);
  });

  it('logs a failed update without the barcode, and the order feed still succeeds', async () => {
    const objectId = await issueLink('40000002', '4000000000000028');
    google.failWith = 403;
    const res = await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 7)]));
    expect(res.statusCode).toBe(200);
    const failed = logs().filter((l) => l.msg === 'Google Wallet object update failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ objectId, err: 'Google Wallet API answered 403 to the object update' });
    expect(logLines.join('\n')).not.toContain('4000000000000028');
  });
});
