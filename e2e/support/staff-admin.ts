/**
 * The first administrator of the e2e server: global-setup.ts passes these as ADMIN_EMAIL and
 * ADMIN_PASSWORD, which the server seeds into an empty database. No imports: the global
 * setup loads this file outside any test.
 */
export const STAFF_ADMIN = { email: 'e2e.admin@boardwalk.test', password: 'e2e-Admin-password-1' } as const;
