// Test support: a day ticket in both wallets, reached the way a guest and a phone reach it: the
// order fed, the Apple pass downloaded and registered on the devices through the PassKit web
// service, the Google save link asked for and the object marked saved at the Google double,
// and the deliveries those made settled.
import { expect } from 'vitest';
import type { App } from '../src/app.ts';
import { anOrder, putOrder } from './fixtures.ts';
import type { GoogleDouble } from './google-double.ts';
import { unpackPass } from './pkpass-check.ts';
import { settleDeliveries } from './test-app.ts';

const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';

/** A day ticket as the ticketing feed sends it, with this cash balance. */
export const dayTicket = (barcode: string, cash: number) => ({
  barcode,
  product: 'Day Ticket',
  cash,
  holder: { firstName: 'Ana', lastName: 'Lopez' },
});

export interface WalletTicket {
  orderId: string;
  barcode: string;
  serialNumber: string;
  /** The pass's authentication token (the PassKit web service's ApplePass authorization). */
  token: string;
  objectId: string;
}

/** A ticket with an Apple pass on these devices and a saved Google object; each guest call from `clientAddress()`. */
export async function ticketInWallets(
  app: App,
  wallets: { passType: string; google: GoogleDouble; clientAddress: () => string },
  orderId: string,
  barcode: string,
  devices: { id: string; pushToken: string }[],
): Promise<WalletTicket> {
  await putOrder(app, orderId, anOrder([dayTicket(barcode, 1)]));
  const res = await app.inject({
    method: 'POST',
    url: '/api/apple-wallet/',
    payload: { orderId, barcode },
    remoteAddress: wallets.clientAddress(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  await unpacked.cleanup();
  const pass = unpacked.pass as { serialNumber: string; authenticationToken: string };
  for (const device of devices) {
    const reg = await app.inject({
      method: 'POST',
      url: `/api/passkit/v1/devices/${device.id}/registrations/${wallets.passType}/${pass.serialNumber}`,
      headers: { authorization: `ApplePass ${pass.authenticationToken}` },
      payload: { pushToken: device.pushToken },
    });
    expect(reg.statusCode).toBe(201);
  }
  const link = await app.inject({
    method: 'POST',
    url: '/api/google-wallet/',
    payload: { orderId, barcode },
    remoteAddress: wallets.clientAddress(),
  });
  expect(link.statusCode).toBe(200);
  const jwt = link.body.slice(SAVE_PREFIX.length);
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as {
    payload: { genericObjects: { id: string }[] };
  };
  const objectId = claims.payload.genericObjects[0]!.id;
  wallets.google.saved.add(objectId);
  await settleDeliveries(app);
  return { orderId, barcode, serialNumber: pass.serialNumber, token: pass.authenticationToken, objectId };
}
