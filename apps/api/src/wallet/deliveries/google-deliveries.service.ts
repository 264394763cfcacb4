// Google Wallet deliveries: when a ticket, a member or a voided card changed, the object a
// saved Google pass should show is compared with what Google was last sent; when it differs,
// a google-update job replaces the object through Google's REST API.
import { createHash } from 'node:crypto';
import type { Executor } from '@boardwalk/db/client';
import { GoogleWalletApiError, type GoogleWallet, type WalletClass, type WalletObject } from '../google/google-wallet.ts';
import { maskBarcode } from '../../platform/logging.ts';
import { PermanentDeliveryError, queueDelivery, tryDelivery, type DeliveryJobData, type TryOutcome } from '../../platform/jobs/delivery.ts';
import type { RunningJob } from '../../platform/jobs/job-queue.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { holderLanguage, toPassOrder } from '../../guest/ticket/ticket.service.ts';
import { findLoyaltyPass, findVoidedPass, setVoidReason } from '../wallet-passes.repo.ts';
import { ticketClasses, toTicketObject, type GoogleWalletConfig } from '../google/google-pass-content.service.ts';
import { loyaltyClass, toLoyaltyObject, voidedLoyaltyObject } from '../google/google-member-card-content.service.ts';
import { findClassHashes, saveClassHash } from '../google/google-classes.repo.ts';
import { GOOGLE_WALLET_STATES } from '../google/google-callbacks.repo.ts';
import { findParkLocations, findParkNotices } from '../park-settings.repo.ts';
import { findGoogleIssuedPasses, recordGoogleUpdate } from '../google/google-wallet.repo.ts';
import { relevanceOf, voidReasonOf } from '../pass-style.service.ts';
import { findMemberCard } from '../../loyalty/loyalty-member.service.ts';

/** What the delivery jobs of Google objects need. */
export interface GoogleDeliveryDeps extends DeliveryDeps {
  config: GoogleWalletConfig;
  googleWallet: GoogleWallet;
}

/** The queue of Google object updates (one object). */
export const GOOGLE_UPDATE_QUEUE = 'google-update';

/**
 * Whose saved object an update is for: a ticket's pass (its own guest's or, by serial
 * number, a shared guest's; a job queued before shared guests had their own names none and
 * is the own guest's), a loyalty member's, or a removed member's voided card.
 */
export type GoogleUpdatePayload =
  { barcode: string; serialNumber?: string } | { loyaltyAccountId: string } | { voidedSerialNumber: string };

interface CurrentObject {
  target: WalletObject;
  serialNumber: string;
  contentHash: string;
  storedHash: string | null;
  /** When Google was last asked to notify the holder (the latest first). */
  notifiedAt: Date[];
  /** For the log and the Deliveries tab (the barcode masked). */
  details: Record<string, string>;
}

/** Google notifies a holder of at most this many updates of one object in 24 hours; later ones go out silently. */
export const GOOGLE_NOTIFICATIONS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A Google object to keep up to date: its link was handed out and Google has not said it was deleted from the wallet. */
const inGoogleWallet = <T extends { googleIssued: boolean; googleWalletState: string | null }>(pass: T | null): pass is T =>
  pass !== null && pass.googleIssued && pass.googleWalletState !== GOOGLE_WALLET_STATES.del;

const hashOf = (object: object) => createHash('sha256').update(JSON.stringify(object)).digest('hex');

/** The object a saved pass should show now (`target`) beside what Google was last sent of it. */
const currentOf = (
  pass: { serialNumber: string; googleContentHash: string | null; googleNotifiedAt: Date[] },
  target: WalletObject,
  details: Record<string, string>,
): CurrentObject => ({
  target,
  serialNumber: pass.serialNumber,
  contentHash: hashOf(target.object),
  storedHash: pass.googleContentHash,
  notifiedAt: pass.googleNotifiedAt,
  details,
});

export type GoogleDeliveries = ReturnType<typeof createGoogleDeliveries>;

export function createGoogleDeliveries(deps: GoogleDeliveryDeps) {
  /** The object a saved Google pass should show now, and the hash that tells whether it changed. */
  async function currentObject(db: Executor, of: GoogleUpdatePayload): Promise<CurrentObject | null> {
    if ('voidedSerialNumber' in of) {
      const pass = await findVoidedPass(db, of.voidedSerialNumber);
      if (!inGoogleWallet(pass)) return null;
      const object = voidedLoyaltyObject(pass.serialNumber, deps.googleWallet.issuerId);
      return currentOf(pass, { kind: 'loyaltyObject', object }, { objectId: object.id, state: object.state });
    }
    if ('loyaltyAccountId' in of) {
      const pass = await findLoyaltyPass(db, of.loyaltyAccountId);
      const member = inGoogleWallet(pass)
        ? await findMemberCard(db, of.loyaltyAccountId, { timeZone: deps.config.parkTimezone, now: deps.at })
        : null;
      if (!pass || !member) return null;
      const object = toLoyaltyObject(member, pass.serialNumber, deps.googleWallet.issuerId, deps.config);
      return currentOf(pass, { kind: 'loyaltyObject', object }, { objectId: object.id });
    }
    return (await currentTicketObjects(db, of.barcode, of.serialNumber ?? null))[0] ?? null;
  }

  /**
   * The objects of a ticket's saved passes (its own guest's and its shared guests'), or the
   * one pass `serialNumber` names (null: the own guest's). Why each shows void is recorded.
   */
  async function currentTicketObjects(db: Executor, barcode: string, serialNumber?: string | null): Promise<CurrentObject[]> {
    const passes = (await findGoogleIssuedPasses(db, [barcode])).filter(
      (p) =>
        inGoogleWallet(p) &&
        (serialNumber === undefined ? true : serialNumber === null ? p.shareId === null : p.serialNumber === serialNumber),
    );
    if (passes.length === 0) return [];
    const found = await deps.tickets.findPass(db, { orderId: passes[0]!.orderId, barcode });
    if (!found) return [];
    const order = toPassOrder(found, deps);
    // A dated admission's object shows its visit day's hours (its valid time), a season pass's its
    // next reservation; the locations are on the class.
    const relevance = await relevanceOf(db, order, deps.config.parkTimezone, { withLocations: false, withSeasonDays: false });
    const objects: CurrentObject[] = [];
    for (const pass of passes) {
      const shareStopped = pass.shareId !== null && !found.shares.some((s) => s.id === pass.shareId);
      const voidReason = voidReasonOf(order, { shareStopped, stored: pass.voidReason });
      if (voidReason !== pass.voidReason) await setVoidReason(db, pass.serialNumber, voidReason);
      // The photo goes on the update whenever the ticket has one: a new photo is a change to show.
      const target = toTicketObject({
        order,
        customization: found.customization,
        serialNumber: pass.serialNumber,
        issuerId: deps.googleWallet.issuerId,
        config: deps.config,
        withPhoto: true,
        contactless: !found.exclusion?.excludeNfc,
        voidReason,
        relevance,
        kind: pass.googleObjectKind ?? 'genericObject',
        language: holderLanguage(found, pass.shareId),
      });
      objects.push(currentOf(pass, target, { objectId: target.object.id, barcode: maskBarcode(barcode), state: target.object.state }));
    }
    return objects;
  }

  /**
   * A ticket or a member changed (in the change job's transaction): when the saved Google
   * object would show something else, an update job is queued (with Google credentials;
   * without, the update is logged). One update waiting per pass: it sends the latest state.
   */
  async function compareObject(tx: Executor, of: GoogleUpdatePayload): Promise<void> {
    const currents = 'barcode' in of ? await currentTicketObjects(tx, of.barcode) : [await currentObject(tx, of)];
    for (const current of currents) {
      if (!current || current.contentHash === current.storedHash) continue;
      if (!deps.googleWallet.updatesObjects) {
        deps.log.info(current.details, 'Google Wallet object update recorded; not sent because no Google credentials are configured');
        continue;
      }
      await queueDelivery(deps.jobs, tx, {
        queue: GOOGLE_UPDATE_QUEUE,
        target: 'google',
        barcode: 'barcode' in of ? of.barcode : null,
        recipient: `object …${current.target.object.id.slice(-12)}`,
        payload: 'barcode' in of ? { barcode: of.barcode, serialNumber: current.serialNumber } : of,
        singletonKey:
          'barcode' in of
            ? current.serialNumber
            : 'loyaltyAccountId' in of
              ? `loyalty:${of.loyaltyAccountId}`
              : `voided:${of.voidedSerialNumber}`,
        at: deps.at,
      });
    }
  }

  /**
   * Replaces the saved object through the REST API with what the ticket shows now. An object
   * no guest saved (404) is skipped, as is one Google already shows; Google refusing the
   * request (400, 403) is not tried again. Google is asked to notify the holder of at most
   * GOOGLE_NOTIFICATIONS_PER_DAY updates of an object in 24 hours: a later update goes out
   * without notification, never held back. (Updates of one object run one at a time: the
   * queue keeps one per object.)
   */
  async function updateObject(job: RunningJob<GoogleUpdatePayload & DeliveryJobData>): Promise<void> {
    const update = async (): Promise<TryOutcome> => {
      const current = await currentObject(deps.db, job.data);
      if (!current)
        return { state: 'skipped', note: 'The ticket or member no longer exists, or the guest deleted the pass from Google Wallet' };
      if (current.contentHash === current.storedHash) return { state: 'skipped', note: 'Google already shows this' };
      const now = deps.at ?? new Date();
      const recent = current.notifiedAt.filter((at) => now.getTime() - at.getTime() < DAY_MS);
      const notify = recent.length < GOOGLE_NOTIFICATIONS_PER_DAY;
      const details = { ...current.details, notify: String(notify) };
      const target = {
        ...current.target,
        object: { ...current.target.object, ...(notify && { notifyPreference: 'notifyOnUpdate' as const }) },
      };
      let outcome: { version: string | null } | 'not-saved';
      try {
        outcome = await deps.googleWallet.updateObject(target as WalletObject);
      } catch (err) {
        deps.log.error({ ...details, err: (err as Error).message }, 'Google Wallet object update failed');
        throw err instanceof GoogleWalletApiError && err.permanent ? new PermanentDeliveryError(err.message) : err;
      }
      if (outcome === 'not-saved') {
        deps.log.debug(details, 'Google Wallet object not saved by any guest yet; nothing to update');
        return { state: 'skipped', note: 'Not saved by any guest yet (404)' };
      }
      await recordGoogleUpdate(deps.db, current.serialNumber, current.contentHash, notify ? [now, ...recent] : recent);
      deps.log.info({ ...details, version: outcome.version }, 'Google Wallet object updated');
      return { state: 'sent', objectVersion: outcome.version };
    };
    await tryDelivery(deps.db, job, update, deps.at);
  }

  /**
   * The classes Google has (one per kind of ticket pass, and the member cards') are brought
   * up to date with what they carry now (the park's locations, the callback URL): a class
   * whose content changed is replaced, or created when Google does not have it yet; an
   * unchanged class is not sent. Without Google credentials there is nothing to send (the
   * save links carry the classes).
   */
  async function syncClasses(): Promise<void> {
    if (!deps.googleWallet.updatesObjects) return;
    const { issuerId } = deps.googleWallet;
    const classes: WalletClass[] = [
      ...ticketClasses(issuerId, deps.config, { locations: await findParkLocations(deps.db), notices: await findParkNotices(deps.db) }),
      { kind: 'loyaltyClass', class: loyaltyClass(issuerId, deps.config) },
    ];
    const stored = await findClassHashes(
      deps.db,
      classes.map((c) => c.class.id),
    );
    for (const target of classes) {
      const contentHash = hashOf(target.class);
      if (stored.get(target.class.id) === contentHash) continue;
      const outcome = await deps.googleWallet.upsertClass(target);
      await saveClassHash(deps.db, target.class.id, contentHash);
      deps.log.info({ classId: target.class.id, outcome }, 'Google Wallet class sent');
    }
  }

  return { compareObject, updateObject, syncClasses };
}
