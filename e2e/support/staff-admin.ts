/**
 * The first administrator of the e2e server: global-setup.ts passes these as ADMIN_EMAIL and
 * ADMIN_PASSWORD, which the server seeds into an empty database. No imports: the global
 * setup loads this file outside any test.
 */
export const STAFF_ADMIN = { email: 'e2e.admin@boardwalk.test', password: 'e2e-Admin-password-1' } as const;

/** The ticketing feed's key on the e2e server (INTEGRATION_API_KEYS), for tests that make their own orders. */
export const E2E_INTEGRATION_KEY = 'e2e-ticketing-secret-0123456789';

/**
 * Deliveries on the e2e server: no coalescing and no retries. APNs is a local double (started
 * by global-setup.ts) that accepts every push except to a push token starting with this
 * prefix, which it answers 500: such a push is dead at once and shows in the Deliveries tab.
 * Webhooks may go to a receiver the tests start on 127.0.0.1 (plain http).
 */
export const E2E_DELIVERY_ENV = {
  DELIVERY_RETRY_LIMIT: '0',
  DELIVERY_COALESCE_SECONDS: '0',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
} as const;
export const E2E_FAILING_PUSH_TOKEN_PREFIX = 'ab';
