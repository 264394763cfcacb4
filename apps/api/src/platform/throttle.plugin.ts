import fp from 'fastify-plugin';
import { createFailureThrottle, type LookupThrottles } from './throttle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lookupThrottles: LookupThrottles;
  }
}

const FIFTEEN_MINUTES = 15 * 60;

/** decisions.md "Security": 10 failed lookups per address and 5 per order id per 15 minutes. */
export const throttlePlugin = fp<{ keyPrefix?: string }>(
  async (app, opts) => {
    const store = { redis: app.redis, keyPrefix: opts.keyPrefix ?? 'boardwalk' };
    app.decorate('lookupThrottles', {
      perAddress: createFailureThrottle({ name: 'lookup-address', points: 10, windowSeconds: FIFTEEN_MINUTES }, store),
      perOrder: createFailureThrottle({ name: 'lookup-order', points: 5, windowSeconds: FIFTEEN_MINUTES }, store),
    });
  },
  { name: 'throttle', dependencies: ['data'] },
);
