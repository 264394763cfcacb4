// Google Wallet's save and delete callbacks: each event recorded once by its nonce, and the
// pass's googleWalletState (saved, deleted) as the latest event says.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { googleWalletCallbacks, ticketShares, walletPasses } from '@boardwalk/db/schema';
import { passBarcode } from '../wallet-passes.repo.ts';
import type { CallbackMessage } from './google-wallet-callbacks.ts';

export const GOOGLE_WALLET_STATES = { save: 'saved', del: 'deleted' } as const;

/** Whose pass an event was for, when it saved again an object the guest had deleted: its wallets must catch up. */
export type Resaved = { barcode: string } | { loyaltyAccountId: string } | null;

/**
 * Records the event (in the caller's transaction): 'duplicate' when its nonce was recorded
 * before, and then nothing changes. A pass's state follows the event with the latest
 * expTimeMillis: a retried older event arriving after a newer one is recorded, not applied.
 * `at`: a past time it was received at (the demo's history), else now.
 */
export async function recordCallback(
  tx: Executor,
  message: CallbackMessage,
  serialNumber: string | null,
  at?: Date,
): Promise<{ outcome: 'accepted' | 'duplicate'; resaved: Resaved; applied: string | null }> {
  const [pass] = serialNumber
    ? await tx
        .select({
          serialNumber: walletPasses.serialNumber,
          state: walletPasses.googleWalletState,
          barcode: passBarcode,
          loyaltyAccountId: walletPasses.loyaltyAccountId,
        })
        .from(walletPasses)
        .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
        .where(eq(walletPasses.serialNumber, serialNumber))
    : [];
  const inserted = await tx
    .insert(googleWalletCallbacks)
    .values({
      nonce: message.nonce,
      eventType: message.eventType,
      classId: message.classId,
      objectId: message.objectId,
      serialNumber: pass?.serialNumber ?? null,
      expiresAt: message.expiresAt,
      ...(at && { receivedAt: at }),
    })
    .onConflictDoNothing()
    .returning({ nonce: googleWalletCallbacks.nonce });
  if (inserted.length === 0) return { outcome: 'duplicate', resaved: null, applied: null };
  if (!pass) return { outcome: 'accepted', resaved: null, applied: null };
  const state = GOOGLE_WALLET_STATES[message.eventType];
  const applied = await tx
    .update(walletPasses)
    .set({ googleWalletState: state, googleWalletStateAt: message.expiresAt })
    .where(
      and(
        eq(walletPasses.serialNumber, pass.serialNumber),
        or(isNull(walletPasses.googleWalletStateAt), lt(walletPasses.googleWalletStateAt, message.expiresAt)),
      ),
    )
    .returning({ serialNumber: walletPasses.serialNumber });
  const resaved = applied.length > 0 && pass.state === GOOGLE_WALLET_STATES.del && state === GOOGLE_WALLET_STATES.save;
  return {
    outcome: 'accepted',
    // The pass whose state the event changed (a save of a saved pass changes nothing).
    applied: applied.length > 0 && pass.state !== state ? pass.serialNumber : null,
    resaved: !resaved
      ? null
      : pass.barcode
        ? { barcode: pass.barcode }
        : pass.loyaltyAccountId
          ? { loyaltyAccountId: pass.loyaltyAccountId }
          : null,
  };
}
