import fp from 'fastify-plugin';
import {
  createFailureThrottle,
  type FailureLimit,
  type FailureThrottle,
  type LookupThrottles,
  type StaffLoginThrottles,
} from './throttle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lookupThrottles: LookupThrottles;
    staffLoginThrottles: StaffLoginThrottles;
    /** Loyalty verify, create and public claims: failures per client address, counted apart from order lookups. */
    loyaltyThrottle: FailureThrottle;
    /** Loyalty accounts created per client address: successes count. */
    loyaltyAccountsLimit: FailureThrottle;
  }
}

const FIFTEEN_MINUTES = 15 * 60;

/**
 * 10 failed lookups per address and 5 per order id per 15 minutes;
 * the same for staff logins per address and per username, and for the loyalty club's public
 * calls per address (verify answers whether an email is a member). Each counter's failures
 * and refusals are counted in the metrics under its name.
 */
export const throttlePlugin = fp<{ keyPrefix?: string }>(
  async (app, opts) => {
    const store = { redis: app.redis, keyPrefix: opts.keyPrefix ?? 'boardwalk' };
    const counter = (name: string, points: number, clearOnSuccess = false) =>
      createFailureThrottle(
        { name, points, windowSeconds: FIFTEEN_MINUTES, clearOnSuccess } satisfies FailureLimit,
        store,
        app.metrics.throttles,
      );
    // A right order id or username clears its own count; an address only gets its point back.
    app.decorate('lookupThrottles', { perAddress: counter('lookup-address', 10), perOrder: counter('lookup-order', 5, true) });
    app.decorate('staffLoginThrottles', {
      perAddress: counter('staff-login-address', 10),
      perUsername: counter('staff-login-username', 5, true),
    });
    app.decorate('loyaltyThrottle', counter('loyalty-address', 10));
    // Accounts are free to make and each may claim once: making them is limited per address too.
    app.decorate(
      'loyaltyAccountsLimit',
      createFailureThrottle(
        {
          name: 'loyalty-accounts-address',
          points: app.config.loyalty.accountsPerAddressPerHour,
          windowSeconds: 60 * 60,
          keeps: 'successes',
        },
        store,
        app.metrics.throttles,
      ),
    );
  },
  { name: 'throttle', dependencies: ['data', 'metrics'] },
);
