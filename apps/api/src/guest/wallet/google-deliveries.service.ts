// Google Wallet deliveries: when a ticket, a member or a voided card changed, the object a
// saved Google pass should show is compared with what Google was last sent; when it differs,
// a google-update job replaces the object through Google's REST API.
import { createHash } from 'node:crypto';
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import { GoogleWalletApiError, type GoogleWallet, type WalletObject } from '../../integrations/google-wallet/google-wallet.ts';
import { maskBarcode } from '../../platform/logging.ts';
import { PermanentDeliveryError, queueDelivery, tryDelivery, type DeliveryJobData } from '../../platform/jobs/delivery.ts';
import type { JobSender, RunningJob } from '../../platform/jobs/job-queue.ts';
import { findPassByBarcode } from '../ticket/ticket.repo.ts';
import { toPassOrder } from '../ticket/ticket.service.ts';
import { findLoyaltyPass, findVoidedPass } from './apple-wallet.repo.ts';
import { toGenericObject, toLoyaltyObject, voidedLoyaltyObject, type GoogleWalletConfig } from './google-pass-content.service.ts';
import { findGoogleIssuedPasses, setGoogleContentHash } from './google-wallet.repo.ts';
import { findLoyaltyMember } from '../../loyalty/loyalty.repo.ts';

/** What the delivery jobs of Google objects need. */
export interface GoogleDeliveryDeps {
  db: Executor;
  jobs: JobSender;
  config: GoogleWalletConfig;
  googleWallet: GoogleWallet;
  log: FastifyBaseLogger;
}

/** The queue of Google object updates (one object). */
export const GOOGLE_UPDATE_QUEUE = 'google-update';

/** Whose saved object an update is for: a ticket's, a loyalty member's, or a removed member's voided card. */
export type GoogleUpdatePayload = { barcode: string } | { loyaltyAccountId: string } | { voidedSerialNumber: string };

interface CurrentObject {
  target: WalletObject;
  serialNumber: string;
  contentHash: string;
  storedHash: string | null;
  /** For the log and the Deliveries tab (the barcode masked). */
  details: Record<string, string>;
}

const hashOf = (object: object) => createHash('sha256').update(JSON.stringify(object)).digest('hex');

export type GoogleDeliveries = ReturnType<typeof createGoogleDeliveries>;

export function createGoogleDeliveries(deps: GoogleDeliveryDeps) {
  /** The object a saved Google pass should show now, and the hash that tells whether it changed. */
  async function currentObject(db: Executor, of: GoogleUpdatePayload): Promise<CurrentObject | null> {
    if ('voidedSerialNumber' in of) {
      const pass = await findVoidedPass(db, of.voidedSerialNumber);
      if (!pass?.googleIssued) return null;
      const object = voidedLoyaltyObject(pass.serialNumber, deps.googleWallet.issuerId);
      return {
        target: { kind: 'loyaltyObject', object },
        serialNumber: pass.serialNumber,
        contentHash: hashOf(object),
        storedHash: pass.googleContentHash,
        details: { objectId: object.id, state: object.state },
      };
    }
    if ('loyaltyAccountId' in of) {
      const pass = await findLoyaltyPass(db, of.loyaltyAccountId);
      const member = pass?.googleIssued ? await findLoyaltyMember(db, of.loyaltyAccountId) : null;
      if (!pass || !member) return null;
      const object = toLoyaltyObject(member, pass.serialNumber, deps.googleWallet.issuerId, deps.config.parkTimezone);
      return {
        target: { kind: 'loyaltyObject', object },
        serialNumber: pass.serialNumber,
        contentHash: hashOf(object),
        storedHash: pass.googleContentHash,
        details: { objectId: object.id },
      };
    }
    const [pass] = await findGoogleIssuedPasses(db, [of.barcode]);
    if (!pass) return null;
    const found = await findPassByBarcode(db, { orderId: pass.orderId, barcode: of.barcode });
    if (!found) return null;
    // The photo goes on the update whenever the ticket has one: a new photo is a change to show.
    const object = toGenericObject({
      order: toPassOrder(found, deps),
      customization: found.customization,
      serialNumber: pass.serialNumber,
      issuerId: deps.googleWallet.issuerId,
      config: deps.config,
      withPhoto: true,
    });
    return {
      target: { kind: 'genericObject', object },
      serialNumber: pass.serialNumber,
      contentHash: hashOf(object),
      storedHash: pass.googleContentHash,
      details: { objectId: object.id, barcode: maskBarcode(of.barcode), state: object.state },
    };
  }

  /**
   * A ticket or a member changed (in the change job's transaction): when the saved Google
   * object would show something else, an update job is queued (with Google credentials;
   * without, the update is logged). One update waiting per pass: it sends the latest state.
   */
  async function compareObject(tx: Executor, of: GoogleUpdatePayload): Promise<void> {
    const current = await currentObject(tx, of);
    if (!current || current.contentHash === current.storedHash) return;
    if (!deps.googleWallet.updatesObjects) {
      deps.log.info(current.details, 'Google Wallet object update recorded; not sent because no Google credentials are configured');
      return;
    }
    await queueDelivery(deps.jobs, tx, {
      queue: GOOGLE_UPDATE_QUEUE,
      target: 'google',
      barcode: 'barcode' in of ? of.barcode : null,
      recipient: `object …${current.target.object.id.slice(-12)}`,
      payload: of,
      singletonKey:
        'barcode' in of ? of.barcode : 'loyaltyAccountId' in of ? `loyalty:${of.loyaltyAccountId}` : `voided:${of.voidedSerialNumber}`,
    });
  }

  /**
   * Replaces the saved object through the REST API with what the ticket shows now. An object
   * no guest saved (404) is skipped, as is one Google already shows; Google refusing the
   * request (400, 403) is not tried again.
   */
  async function updateObject(job: RunningJob<GoogleUpdatePayload & DeliveryJobData>): Promise<void> {
    await tryDelivery(deps.db, job, async () => {
      const current = await currentObject(deps.db, job.data);
      if (!current) return { state: 'skipped', note: 'The ticket or member no longer exists' };
      if (current.contentHash === current.storedHash) return { state: 'skipped', note: 'Google already shows this' };
      const { details } = current;
      let outcome: 'updated' | 'not-saved';
      try {
        outcome = await deps.googleWallet.updateObject(current.target);
      } catch (err) {
        deps.log.error({ ...details, err: (err as Error).message }, 'Google Wallet object update failed');
        throw err instanceof GoogleWalletApiError && err.permanent ? new PermanentDeliveryError(err.message) : err;
      }
      if (outcome === 'not-saved') {
        deps.log.debug(details, 'Google Wallet object not saved by any guest yet; nothing to update');
        return { state: 'skipped', note: 'Not saved by any guest yet (404)' };
      }
      await setGoogleContentHash(deps.db, current.serialNumber, current.contentHash);
      deps.log.info(details, 'Google Wallet object updated');
      return { state: 'sent' };
    });
  }

  return { compareObject, updateObject };
}
