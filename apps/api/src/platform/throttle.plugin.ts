import fp from 'fastify-plugin';
import { createFailureThrottle, type FailureThrottle, type LookupThrottles, type StaffLoginThrottles } from './throttle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lookupThrottles: LookupThrottles;
    staffLoginThrottles: StaffLoginThrottles;
    /** Loyalty verify, create and public claims: failures per client address, counted apart from order lookups. */
    loyaltyThrottle: FailureThrottle;
  }
}

const FIFTEEN_MINUTES = 15 * 60;

/**
 * decisions.md "Security": 10 failed lookups per address and 5 per order id per 15 minutes;
 * the same for staff logins per address and per username, and for the loyalty club's public
 * calls per address (verify answers whether an email is a member).
 */
export const throttlePlugin = fp<{ keyPrefix?: string }>(
  async (app, opts) => {
    const store = { redis: app.redis, keyPrefix: opts.keyPrefix ?? 'boardwalk' };
    app.decorate('lookupThrottles', {
      perAddress: createFailureThrottle({ name: 'lookup-address', points: 10, windowSeconds: FIFTEEN_MINUTES }, store),
      perOrder: createFailureThrottle({ name: 'lookup-order', points: 5, windowSeconds: FIFTEEN_MINUTES }, store),
    });
    app.decorate('staffLoginThrottles', {
      perAddress: createFailureThrottle({ name: 'staff-login-address', points: 10, windowSeconds: FIFTEEN_MINUTES }, store),
      perUsername: createFailureThrottle({ name: 'staff-login-username', points: 5, windowSeconds: FIFTEEN_MINUTES }, store),
    });
    app.decorate('loyaltyThrottle', createFailureThrottle({ name: 'loyalty-address', points: 10, windowSeconds: FIFTEEN_MINUTES }, store));
  },
  { name: 'throttle', dependencies: ['data'] },
);
