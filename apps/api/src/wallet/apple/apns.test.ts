import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startApnsDouble } from '../../../test-support/apns-double.ts';
import { createHttp2ApnsClient, type ApnsClient } from './apns.ts';

it('fails a push to an APNs that cannot be reached, and still closes at once', async () => {
  // Nothing listens on port 9: the session is destroyed by its connection error.
  const client = createHttp2ApnsClient({ url: 'https://127.0.0.1:9', topic: 'pass.com.boardwalk.demo', certPem: '', keyPem: '' });
  expect((await client.push('ab'.repeat(32))).outcome).toBe('failed');
  const closed = await Promise.race([
    client.close().then(() => 'closed'),
    new Promise((resolve) => setTimeout(() => resolve('hung'), 2000)),
  ]);
  expect(closed).toBe('closed');
});

/** A push token (64 hex digits) for each number. */
const token = (i: number) => i.toString(16).padStart(64, '0');

/** A client of an APNs double that answers every push 200 after `answerAfterMs`, closed after `use`. */
async function withApns(
  answerAfterMs: number,
  doubleOptions: Parameters<typeof startApnsDouble>[2],
  clientOptions: { timeoutMs?: number },
  use: (client: ApnsClient, apns: Awaited<ReturnType<typeof startApnsDouble>>) => Promise<void>,
) {
  const dir = await mkdtemp(join(tmpdir(), 'bw-apns-'));
  const apns = await startApnsDouble(
    dir,
    () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), answerAfterMs)),
    doubleOptions,
  );
  const client = createHttp2ApnsClient({
    url: apns.url,
    topic: 'pass.com.boardwalk.demo',
    certPem: '',
    keyPem: '',
    extraCaPem: await readFile(apns.caFile, 'utf8'),
    ...clientOptions,
  });
  try {
    await use(client, apns);
  } finally {
    await client.close();
    apns.server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

it('sends no more pushes at once than APNs takes, each timed from when it is sent, not while it waits', async () => {
  // An APNs that takes 2 streams at once and answers each after 300 ms.
  await withApns(300, { maxConcurrentStreams: 2 }, { timeoutMs: 1000 }, async (client, apns) => {
    // The connection, and with it APNs's SETTINGS.
    expect((await client.push(token(0))).outcome).toBe('sent');
    // 10 pushes, 2 at a time: the last is sent 1.2 s after the first, past the 1 s timeout.
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => client.push(token(i + 1))));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => ({ outcome: 'sent', status: 200 })));
    expect(apns.pushes).toHaveLength(11);
  });
});

it('sends again, on a new connection, the pushes APNs refused unprocessed when it went away, each once', async () => {
  // The first connection goes away at its 4th stream; answers take 100 ms, so all 10 pushes are in flight then.
  await withApns(100, { goAwayAfter: 3 }, {}, async (client, apns) => {
    const tokens = Array.from({ length: 10 }, (_, i) => token(i));
    const outcomes = await Promise.all(tokens.map((t) => client.push(t)));
    expect(outcomes).toEqual(tokens.map(() => ({ outcome: 'sent', status: 200 })));
    expect(apns.pushes.map((push) => push.path).sort()).toEqual(tokens.map((t) => `/3/device/${t}`));
    // And the client goes on with the new connection.
    expect((await client.push(tokens[0]!)).outcome).toBe('sent');
  });
});
