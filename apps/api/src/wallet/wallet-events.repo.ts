// The wallet's events for the operator's systems: a pass added to a wallet or removed from it
// (an Apple device registering or unregistering, a Google save or delete callback), named by
// the ids the operator knows: the ticket's order id and barcode (and share), or the member number.
import type { Executor } from '@boardwalk/db/client';
import { recordEvent } from '../platform/events.ts';
import { findPassBySerialNumber } from './wallet-passes.repo.ts';

/** Records wallet.pass_added or wallet.pass_removed for the pass, in tx (nothing for a pass that no longer exists). */
export async function recordWalletEvent(
  tx: Executor,
  type: 'wallet.pass_added' | 'wallet.pass_removed',
  wallet: 'apple' | 'google',
  serialNumber: string,
): Promise<void> {
  const pass = await findPassBySerialNumber(tx, serialNumber);
  if (!pass) return;
  const { barcode, orderId, shareId, memberNumber } = pass;
  const subject = barcode
    ? (`ticket:${barcode}` as const)
    : memberNumber
      ? (`member:${memberNumber}` as const)
      : (`pass:${serialNumber}` as const);
  await recordEvent(tx, type, subject, { wallet, serialNumber, orderId, barcode, shareId, memberNumber });
}
