// The outbound adapter to the operator's webhook endpoints: one POST of one message, signed as
// Standard Webhooks define (the `standardwebhooks` package: `webhook-id`, `webhook-timestamp`,
// `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`; several signatures
// space-separated while a rotated secret still counts), to an address a staff member typed.
// Safe to point anywhere (request-filtering-agent): the address is checked after DNS, at
// connect time, so a name that rebinds to an inside address cannot reach it; loopback, private,
// link-local (the cloud metadata service) and reserved addresses are refused, and plain http
// too, unless the operator allows private networks (an on-premises CRM). Redirects are not
// followed (node's request never does); the answer is read up to ANSWER_CAP_BYTES.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';

/** What of an answer is read: enough for a status line's worth of explanation. */
export const ANSWER_CAP_BYTES = 4096;

/**
 * Connections a process opens at once to one receiving host (its agent pool: host and port);
 * further messages wait for one of them, within their timeout (counted from the send, so a
 * batch still ends within it, well before its job would expire). A receiver is not flooded
 * with a connection per message in flight (two jobs of 100 each per fetch loop), and the
 * connections are kept and reused: with no cap, the agent kept 256 idle and opened and closed
 * the rest on every batch (bench:webhooks: 0.47 of the bare loop with no cap, 0.57 with it).
 */
export const CONNECTIONS_PER_HOST = 50;

export interface WebhookMessage {
  /** Stable across retries: receivers de-duplicate by it. */
  id: string;
  timestamp: Date;
  /** The JSON body, signed as sent. */
  body: string;
}

export type WebhookOutcome =
  /** A 2xx answer. */
  | { outcome: 'delivered'; status: number; ms: number }
  /** 410 Gone: the receiver asks for no more messages (the endpoint is disabled). */
  | { outcome: 'gone'; status: 410; ms: number }
  /** Anything else: another status (a redirect included), no answer in time, a refused or failed connection. */
  | { outcome: 'failed'; status: number | null; ms: number; error: string };

export interface WebhookSender {
  /** Sends one message to the URL, signed with each secret (`whsec_...`, newest first). */
  send(url: string, secrets: string[], message: WebhookMessage): Promise<WebhookOutcome>;
}

export interface WebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: private addresses and plain http accepted. */
  allowPrivateNetworks: boolean;
  /** No answer within this is a failure (10 s). */
  timeoutMs?: number;
}

/** The IPv4-compatible IPv6 block (RFC 4291 2.5.5.1): `::` and `::1` are in it too, already refused. */
const IPV4_COMPATIBLE = '::/96';

/** A new signing secret as Standard Webhooks define it: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Why a URL cannot be an endpoint (checked when it is saved, and again at each send); null when it can. */
export function urlProblem(url: string, allowPrivateNetworks: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter a full URL, starting with https://';
  }
  // Credentials in the address would be stored and shown in clear: receivers check the signature.
  if (parsed.username || parsed.password) return 'The URL must not hold a user name or password';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && allowPrivateNetworks) return null;
  return allowPrivateNetworks ? 'The URL must start with https:// or http://' : 'The URL must start with https://';
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const filter = {
    allowPrivateIPAddress: options.allowPrivateNetworks,
    // IPv4-compatible IPv6 addresses (::a.b.c.d, deprecated) reach the IPv4 address on Linux,
    // yet ipaddr.js calls them unicast: `::7f00:1` passed as an outside address.
    denyIPAddressList: options.allowPrivateNetworks ? [] : [IPV4_COMPATIBLE],
    keepAlive: true,
    maxSockets: CONNECTIONS_PER_HOST,
  };
  const agents = { 'https:': new RequestFilteringHttpsAgent(filter), 'http:': new RequestFilteringHttpAgent(filter) };
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    send(url, secrets, message) {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      const failed = (status: number | null, error: string): WebhookOutcome => ({ outcome: 'failed', status, ms: ms(), error });
      const problem = urlProblem(url, options.allowPrivateNetworks);
      if (problem) return Promise.resolve(failed(null, problem));
      const target = new URL(url);
      const signature = secrets.map((secret) => new Webhook(secret).sign(message.id, message.timestamp, message.body)).join(' ');
      const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<WebhookOutcome>((resolve) => {
        // The deadline is a timer cleared at the answer, not AbortSignal.timeout: that one's
        // timer is never cleared, and each fires after its request has long ended, building a
        // DOMException and an abort event for nothing (2% of a drain's CPU, measured).
        const req = request(target, {
          method: 'POST',
          agent: agents[target.protocol as 'https:' | 'http:'],
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Boardwalk-Webhooks/1',
            'webhook-id': message.id,
            'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
        });
        const timer = setTimeout(() => {
          settle(failed(null, `No answer within ${timeoutMs / 1000} s`));
          req.destroy();
        }, timeoutMs);
        const settle = (outcome: WebhookOutcome) => {
          clearTimeout(timer);
          resolve(outcome);
        };
        req.on('response', (res) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          const done = () => {
            if (status >= 200 && status < 300) settle({ outcome: 'delivered', status, ms: ms() });
            else if (status === 410) settle({ outcome: 'gone', status: 410, ms: ms() });
            else settle(failed(status, `The endpoint answered ${status}`));
          };
          // Only the first few KiB are read; a longer answer is cut off there.
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read >= ANSWER_CAP_BYTES) {
              res.destroy();
              done();
            }
          });
          res.on('end', done);
          res.on('error', done);
        });
        req.on('error', (error) => settle(failed(null, error.message)));
        req.end(message.body);
      });
    },
  };
}
