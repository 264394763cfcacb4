// POST /api/google-wallet/callbacks: Google tells that a guest saved a pass's object to a
// wallet or deleted it. The message is verified (the Google Wallet adapter), recorded once
// by its nonce, and the pass's state follows it: a deleted object gets no more updates
// (google-deliveries.service.ts) until it is saved again, when its pass is compared at once.
// Every callback is counted by event and outcome.
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { CallbackRefused, RootKeysUnavailable, type CallbackMessage } from './google-wallet-callbacks.ts';
import type { GoogleWallet } from './google-wallet.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { LOYALTY_ACCOUNT_CHANGED } from '../../loyalty/loyalty.topics.ts';
import { AppError } from '../../platform/errors.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { recordCallback } from './google-callbacks.repo.ts';
import { recordWalletEvent } from '../wallet-events.repo.ts';

export interface GoogleCallbacksDeps {
  db: Executor;
  changes: ChangeBus;
  googleWallet: GoogleWallet;
  registry: Registry;
  log: FastifyBaseLogger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records a verified callback in tx: 'duplicate' when its nonce was recorded before. A pass
 * saved again after a delete is published (its object missed the updates in between and is
 * compared now); a pass whose state changed is an event. `at`: a past time it was received at
 * (the demo's history, which has no message of Google's to verify), else now.
 */
export async function acceptCallback(
  tx: Executor,
  changes: ChangeBus,
  message: CallbackMessage,
  serialNumber: string | null,
  at?: Date,
): Promise<'accepted' | 'duplicate'> {
  const recorded = await recordCallback(tx, message, serialNumber, at);
  const { resaved } = recorded;
  if (resaved && 'barcode' in resaved) await changes.publish(tx, TICKET_CHANGED, [resaved.barcode]);
  if (resaved && 'loyaltyAccountId' in resaved) await changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, [resaved.loyaltyAccountId]);
  if (recorded.applied) {
    const type = message.eventType === 'save' ? 'wallet.pass_added' : 'wallet.pass_removed';
    await recordWalletEvent(tx, type, 'google', recorded.applied);
  }
  return recorded.outcome;
}

export type GoogleCallbacks = ReturnType<typeof createGoogleCallbacks>;

export function createGoogleCallbacks(deps: GoogleCallbacksDeps) {
  const counted = new Counter({
    name: 'boardwalk_google_wallet_callbacks_total',
    help: 'Google Wallet save and delete callbacks by event (save, del; unknown when refused before its message was read) and outcome (accepted, duplicate, refused)',
    labelNames: ['event', 'outcome'],
    registers: [deps.registry],
  });
  const prefix = `${deps.googleWallet.issuerId}.`;

  return {
    /** Verifies and records one callback; a refused one answers 400 and records nothing. */
    async receive(body: unknown): Promise<'accepted' | 'duplicate'> {
      let message;
      try {
        message = await deps.googleWallet.verifyCallback(body);
      } catch (err) {
        if (err instanceof RootKeysUnavailable) {
          deps.log.error({ err: err.message }, 'Google Wallet callback not verified: root keys unavailable');
          throw new AppError('SERVICE_UNAVAILABLE', "Google's root keys are unavailable; try again later", { retryAfterSeconds: 60 });
        }
        if (!(err instanceof CallbackRefused)) throw err;
        counted.inc({ event: err.event ?? 'unknown', outcome: 'refused' });
        deps.log.warn({ reason: err.message }, 'Google Wallet callback refused');
        throw new AppError('VALIDATION_FAILED', err.message);
      }
      // The object id is `${issuerId}.${serialNumber}`; anything else names no pass of ours.
      const suffix = message.objectId.slice(prefix.length);
      const serialNumber = UUID.test(suffix) ? suffix.toLowerCase() : null;
      const outcome = await deps.db.transaction((tx) => acceptCallback(tx, deps.changes, message, serialNumber));
      counted.inc({ event: message.eventType, outcome });
      deps.log.info({ objectId: message.objectId, event: message.eventType, outcome }, 'Google Wallet callback');
      return outcome;
    },
  };
}
