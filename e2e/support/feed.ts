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

let ticketSeq = 0;
/**
 * A wristband ticket of its own (the demo's wristband pack 770), unbound: a test that shows the
 * code field never depends on what another file did to a shared ticket (the demo's 10000007).
 */
export async function aWristbandTicket(first = '8', server = baseUrl()): Promise<{ orderId: string; barcode: string }> {
  const orderId = anOrderId(first);
  const barcode = `${orderId}${String(++ticketSeq).padStart(8, '0')}`;
  await feed(
    `orders/${orderId}`,
    {
      orderDate: '2026-11-20T18:15:00Z',
      purchaser: { firstName: 'Mia', lastName: 'Chen' },
      tickets: [
        {
          barcode,
          product: 'Unlimited Rides Wristband',
          packId: '770',
          isPassholder: false,
          holder: { firstName: 'Mia', lastName: 'Chen' },
          credits: 0,
          cash: 0,
          expires: '2031-01-01T05:00:00Z',
          refunded: false,
          isPassActivated: false,
        },
      ],
    },
    server,
  );
  return { orderId, barcode };
}
