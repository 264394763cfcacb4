// Test support: a local double of Google's OAuth token endpoint (JWT-bearer grant), the
// walletobjects object PUT (generic, event ticket, loyalty) and the class PUT and POST,
// recording the calls. Objects not "saved" answer 404 like Google, as do classes not created
// yet; failWith makes every object call answer that status, tooManyRequests the next calls
// answer 429 with a Retry-After; requestTimes has the moment of every walletobjects call.
import { randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createVerifier } from 'fast-jwt';
import type { EventTicketObject, GenericObject, LoyaltyObject } from '../src/wallet/google/google-wallet.ts';

/** A public key as the PEM text a JWT verifier takes. */
export const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

export interface ObjectCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: GenericObject | LoyaltyObject | EventTicketObject;
}

export interface ClassCall {
  method: string;
  path: string;
  body: { id: string; merchantLocations?: { latitude: number; longitude: number }[] };
}

export class GoogleDouble {
  server!: Server;
  baseUrl = '';
  issuedTokens: string[] = [];
  tokenAssertions: Record<string, unknown>[] = [];
  objectCalls: ObjectCall[] = [];
  classCalls: ClassCall[] = [];
  /** Class ids Google has (created by a POST, or as if by a saved link). */
  classes = new Set<string>();
  /** Object ids a guest "saved": others answer 404 like Google. */
  saved = new Set<string>();
  failWith: number | null = null;
  /** Each saved object's version, counted up by every update Google accepts (Google answers it in the object). */
  versions = new Map<string, number>();
  /** Milliseconds each object call takes (a slow Google). */
  delayMs = 0;
  /** The next `left` walletobjects calls (classes or objects) answer 429 with this Retry-After. */
  tooManyRequests: { left: number; retryAfter: string } | null = null;
  /** When each walletobjects call came (Date.now()), 429s included. */
  requestTimes: number[] = [];

  constructor(
    readonly publicKey: KeyObject,
    readonly clientEmail: string,
  ) {}

  async start() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body, headers }) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
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

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(raw);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') throw new Error('wrong grant_type');
      const verify = createVerifier({ key: pem(this.publicKey), algorithms: ['RS256'], allowedIss: this.clientEmail });
      this.tokenAssertions.push(verify(form.get('assertion') ?? '') as Record<string, unknown>);
      const token = `ya29.double-${randomBytes(8).toString('hex')}`;
      this.issuedTokens.push(token);
      return { status: 200, body: { access_token: token, expires_in: 3600, token_type: 'Bearer' } };
    }
    if (url.pathname.startsWith('/walletobjects/')) {
      this.requestTimes.push(Date.now());
      if (this.tooManyRequests && this.tooManyRequests.left > 0) {
        this.tooManyRequests.left--;
        const error = { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } };
        return { status: 429, body: error, headers: { 'retry-after': this.tooManyRequests.retryAfter } };
      }
    }
    const classMatch = /^\/walletobjects\/v1\/(?:genericClass|loyaltyClass|eventTicketClass)(?:\/([^/]+))?$/.exec(url.pathname);
    if (classMatch) {
      const body = JSON.parse(raw) as ClassCall['body'];
      this.classCalls.push({ method: req.method ?? '', path: url.pathname, body });
      if (req.method === 'POST' && !classMatch[1]) {
        this.classes.add(body.id);
        return { status: 200, body };
      }
      const id = decodeURIComponent(classMatch[1] ?? '');
      if (req.method === 'PUT' && this.classes.has(id)) return { status: 200, body };
      return { status: 404, body: { error: { code: 404, message: `Resource not found: ${id}` } } };
    }
    const match = /^\/walletobjects\/v1\/(?:genericObject|loyaltyObject|eventTicketObject)\/([^/]+)$/.exec(url.pathname);
    if (match && (req.method === 'PUT' || req.method === 'PATCH')) {
      const id = decodeURIComponent(match[1]!);
      const body = JSON.parse(raw) as ObjectCall['body'];
      if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      this.objectCalls.push({ method: req.method, path: url.pathname, authorization: req.headers.authorization, body });
      if (this.failWith) return { status: this.failWith, body: { error: { code: this.failWith, message: 'backend error' } } };
      if (!this.saved.has(id)) return { status: 404, body: { error: { code: 404, message: `Resource not found: ${id}` } } };
      const version = (this.versions.get(id) ?? 1) + 1;
      this.versions.set(id, version);
      return { status: 200, body: { ...body, version: String(version) } };
    }
    return { status: 404, body: { error: { code: 404, message: 'no such route' } } };
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A service-account key file whose token_uri is the double's token endpoint. */
export async function writeServiceAccountKey(path: string, privateKey: KeyObject, clientEmail: string, tokenUri: string) {
  await writeFile(
    path,
    JSON.stringify({
      type: 'service_account',
      project_id: 'boardwalk-test',
      private_key_id: 'test-key-1',
      private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }),
      client_email: clientEmail,
      token_uri: tokenUri,
    }),
  );
}
