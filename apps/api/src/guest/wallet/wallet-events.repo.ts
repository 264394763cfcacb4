// The wallet's events for the operator's systems: a pass added to a wallet or removed from it
// (an Apple device registering or unregistering, a Google save or delete callback), named by
// the ids the operator knows: the ticket's order id and barcode (and share), or the member number.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, tickets, ticketShares, walletPasses } from '@boardwalk/db/schema';
import { recordEvent } from '../../platform/events.ts';
import { passBarcode } from './apple-wallet.repo.ts';

/** Records wallet.pass_added or wallet.pass_removed for the pass, in tx (nothing for a pass that no longer exists). */
export async function recordWalletEvent(
  tx: Executor,
  type: 'wallet.pass_added' | 'wallet.pass_removed',
  wallet: 'apple' | 'google',
  serialNumber: string,
): Promise<void> {
  const [pass] = await tx
    .select({
      barcode: sql<string | null>`${passBarcode}`,
      orderId: tickets.orderId,
      shareId: walletPasses.shareId,
      memberNumber: loyaltyAccounts.memberNumber,
    })
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .leftJoin(tickets, eq(tickets.barcode, passBarcode))
    .leftJoin(loyaltyAccounts, eq(loyaltyAccounts.id, walletPasses.loyaltyAccountId))
    .where(eq(walletPasses.serialNumber, serialNumber));
  if (!pass) return;
  const subject = pass.barcode
    ? (`ticket:${pass.barcode}` as const)
    : pass.memberNumber
      ? (`member:${pass.memberNumber}` as const)
      : (`pass:${serialNumber}` as const);
  await recordEvent(tx, type, subject, {
    wallet,
    serialNumber,
    orderId: pass.orderId,
    barcode: pass.barcode,
    shareId: pass.shareId,
    memberNumber: pass.memberNumber,
  });
}
