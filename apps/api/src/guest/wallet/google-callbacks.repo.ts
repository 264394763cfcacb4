// Google Wallet's save and delete callbacks: each event recorded once by its nonce, and the
// pass's googleWalletState (saved, deleted) as the latest event says.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { googleWalletCallbacks, walletPasses } from '@boardwalk/db/schema';
import type { CallbackMessage } from '../../integrations/google-wallet/google-wallet-callbacks.ts';

export const GOOGLE_WALLET_STATES = { save: 'saved', del: 'deleted' } as const;

/**
 * Records the event (in the caller's transaction): 'duplicate' when its nonce was recorded
 * before, and then nothing changes. A pass's state follows the event with the latest
 * expTimeMillis: a retried older event arriving after a newer one is recorded, not applied.
 */
export async function recordCallback(
  tx: Executor,
  message: CallbackMessage,
  serialNumber: string | null,
): Promise<'accepted' | 'duplicate'> {
  const [pass] = serialNumber
    ? await tx.select({ serialNumber: walletPasses.serialNumber }).from(walletPasses).where(eq(walletPasses.serialNumber, serialNumber))
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
    })
    .onConflictDoNothing()
    .returning({ nonce: googleWalletCallbacks.nonce });
  if (inserted.length === 0) return 'duplicate';
  if (pass) {
    await tx
      .update(walletPasses)
      .set({ googleWalletState: GOOGLE_WALLET_STATES[message.eventType], googleWalletStateAt: message.expiresAt })
      .where(
        and(
          eq(walletPasses.serialNumber, pass.serialNumber),
          or(isNull(walletPasses.googleWalletStateAt), lt(walletPasses.googleWalletStateAt, message.expiresAt)),
        ),
      );
  }
  return 'accepted';
}
