/**
 * The first administrator of the e2e server: global-setup.ts passes these as ADMIN_EMAIL and
 * ADMIN_PASSWORD, which the server seeds into an empty database. No imports: the global
 * setup loads this file outside any test.
 */
export const STAFF_ADMIN = { email: 'e2e.admin@boardwalk.test', password: 'e2e-Admin-password-1' } as const;

/** The ticketing feed's key on the e2e server (INTEGRATION_API_KEYS), for tests that make their own orders. */
export const E2E_INTEGRATION_KEY = 'e2e-ticketing-secret-0123456789';

/**
 * APNs on the e2e server: an address nothing listens on, so a push fails; with no retries it
 * is dead at once and shows in the Deliveries tab.
 */
export const E2E_DELIVERY_ENV = { APNS_URL: 'https://127.0.0.1:9', DELIVERY_RETRY_LIMIT: '0', DELIVERY_COALESCE_SECONDS: '0' } as const;
