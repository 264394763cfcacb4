// Test support: two app instances on one PostgreSQL database and one Redis, as behind a
// load balancer. Only where both are reachable: use `describe.skipIf(!twoInstancesAvailable)`.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestDatabase, testDbKind } from '@boardwalk/db/test-support/test-database';
import { createTestApp, type TestApp } from './test-app.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const twoInstancesAvailable = testDbKind() === 'postgres' && process.env.BW_SKIP_REDIS !== '1';

export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

/** Two apps sharing a fresh PostgreSQL database and the throttle counters in Redis. */
export async function createTwoInstances(): Promise<TwoInstances> {
  const database = await createTestDatabase('postgres');
  const throttleKeyPrefix = `test-shared-${randomBytes(6).toString('hex')}`;
  const redisA = new Redis(redisUrl);
  const redisB = new Redis(redisUrl);
  const env = { DATABASE_URL: database.url!, REDIS_URL: redisUrl };
  const a = await createTestApp({ database, redis: redisA, throttleKeyPrefix, env });
  const b = await createTestApp({ database, redis: redisB, throttleKeyPrefix, env });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await redisA.quit();
      await redisB.quit();
      await database.close();
    },
  };
}
