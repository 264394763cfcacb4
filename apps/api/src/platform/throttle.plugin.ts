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
    /** Loyalty email codes mailed: per client address and per email (each request counts). */
    loyaltyCodeLimits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
    /** Loyalty email codes refused (wrong or expired) per email, whatever the address. */
    loyaltyCodeFailures: FailureThrottle;
    /** Loyalty statement links asked for: per client address and per email (each request counts). */
    loyaltyStatementLimits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
    /** Privacy links asked for by guests: per client address and per email (each request counts). */
    privacyLinkLimits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
    /** Apple's unauthenticated PassKit /log: requests per client address (each counts). */
    passkitLogLimit: FailureThrottle;
  }
}

const FIFTEEN_MINUTES = 15 * 60;

/**
 * 10 failed lookups per address and 5 per order id per 15 minutes;
 * the same for staff logins per address and per username, and for the loyalty club's public
 * calls per address (confirm, a code's try, answers whether an email is a member). Each counter's failures
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
    // Limits on what callers make rather than on what they guess: every success counts.
    const limit = (name: string, points: number, windowSeconds: number) =>
      createFailureThrottle({ name, points, windowSeconds, keeps: 'successes' }, store, app.metrics.throttles);
    // Accounts are free to make and each may claim once: making them is limited per address too.
    app.decorate('loyaltyAccountsLimit', limit('loyalty-accounts-address', app.config.loyalty.accountsPerAddressPerHour, 60 * 60));
    // A loyalty email's one-time code: 10 mails per address in 15 minutes and 5 per email in an hour;
    // 20 wrong or expired codes per email in an hour, from any address (two codes' worth of their 10 tries each).
    app.decorate('loyaltyCodeLimits', {
      perAddress: limit('loyalty-code-address', 10, FIFTEEN_MINUTES),
      perEmail: limit('loyalty-code-email', 5, 60 * 60),
    });
    app.decorate(
      'loyaltyCodeFailures',
      createFailureThrottle({ name: 'loyalty-code-email-failures', points: 20, windowSeconds: 60 * 60 }, store, app.metrics.throttles),
    );
    // Every statement link asked for sends a mail (to a member): 10 per address and 5 per email in 15 minutes.
    app.decorate('loyaltyStatementLimits', {
      perAddress: limit('loyalty-statement-address', 10, FIFTEEN_MINUTES),
      perEmail: limit('loyalty-statement-email', 5, FIFTEEN_MINUTES),
    });
    // The same for a guest's privacy link (a mail to whom the email names).
    app.decorate('privacyLinkLimits', {
      perAddress: limit('privacy-link-address', 10, FIFTEEN_MINUTES),
      perEmail: limit('privacy-link-email', 5, FIFTEEN_MINUTES),
    });
    // Anyone may post to /log: 10 requests per address in 15 minutes reach the log.
    app.decorate('passkitLogLimit', limit('passkit-log-address', 10, FIFTEEN_MINUTES));
  },
  { name: 'throttle', dependencies: ['data', 'metrics'] },
);
