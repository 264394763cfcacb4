import { expect, it } from 'vitest';
import { createHttp2ApnsClient } from './apns.ts';

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
