// Test support for webhooks: a receiver (the operator's CRM) that verifies every delivery with
// the `standardwebhooks` library, answering as a test says, and the clock moved for the
// retry schedule (a retry's job and its message made due now).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestDatabase } from '@boardwalk/db/test-support/test-database';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: { id: string; type: string; timestamp: string; version: number; data: Record<string, unknown> };
  /** The secrets (as the test named them) whose signature verified. */
  verifiedWith: string[];
  at: number;
}

/** What the receiver answers a delivery: a status, or 'hang' (never answered). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  url(path: string): string;
  received: ReceivedWebhook[];
  /** The deliveries to one path, in arrival order. */
  at(path: string): ReceivedWebhook[];
  /** The secrets a delivery is verified against, by name. */
  secrets: Map<string, string>;
  /** The answer to each delivery (200 unless set). */
  answer: (delivery: ReceivedWebhook) => Answer;
  close(): Promise<void>;
}

/** Verifies body and headers with one secret through the scheme's own library (which also checks the timestamp's age). */
export function verifies(secret: string, body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging: import('node:http').ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    at: (path) => receiver.received.filter((r) => r.path === path),
    secrets: new Map(),
    answer: () => 200,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => void (body += chunk.toString('utf8')));
    req.on('end', () => {
      const delivery: ReceivedWebhook = {
        path: req.url ?? '',
        headers: req.headers,
        body,
        payload: JSON.parse(body) as ReceivedWebhook['payload'],
        verifiedWith: [...receiver.secrets].filter(([, secret]) => verifies(secret, body, req.headers)).map(([name]) => name),
        at: Date.now(),
      };
      receiver.received.push(delivery);
      const answer = receiver.answer(delivery);
      if (answer === 'hang') hanging.push(res);
      else res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}

/** The clock moved past every retry's wait: the retrying messages and their jobs are due now. */
export async function moveClockToRetries(database: TestDatabase): Promise<void> {
  await database.executeSql(`update webhook_messages set next_attempt_at = now() where state = 'retrying'`, []);
  await database.executeSql(
    `update pgboss.job set start_after = now() where name = 'webhooks' and state = 'created' and start_after > now()`,
    [],
  );
}
