// The operator's systems, as the e2e tests play them: a PUT through the integration API with
// the e2e server's ticketing key, for tests that make purchases of their own.
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';
import { E2E_INTEGRATION_KEY } from './staff-admin.ts';

/** PUT /api/integrations/{path} (on the run's server, or a file's own); the feed must take it as new (201). */
export async function feed(path: string, body: object, server = baseUrl()): Promise<void> {
  const response = await fetch(`${server}/api/integrations/${path}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${E2E_INTEGRATION_KEY}` },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.text()).toBe(201);
}

let seq = 0;
/** An 8-digit order id no other test uses (the first digit names the test file's range). */
export const anOrderId = (first: string) => `${first}${`${Date.now()}`.slice(-5)}${String(++seq % 100).padStart(2, '0')}`;
