// Apple Wallet deliveries: when a ticket, a member or a voided card changed, what its pass
// shows is compared with what the devices were last told; when it differs, the update tag
// moves and every registered device gets an APNs push (apns-push, one per device), after
// which the device fetches the latest pass from the PassKit web service.
import type { Executor } from '@boardwalk/db/client';
import type { AppleWallet } from '../apple/apple-wallet.plugin.ts';
import { maskBarcode, maskUrl } from '../../platform/logging.ts';
import { tryDeliveries, queueDelivery, type DeliveryJobData, type TryOutcome } from '../../platform/jobs/delivery.ts';
import type { RunningJob } from '../../platform/jobs/job-queue.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import {
  currentPassContent,
  loyaltyApplePassContent,
  voidedLoyaltyApplePassContent,
  type WalletConfig,
} from '../apple/apple-pass-content.service.ts';
import { findApplePasses, findLoyaltyPass, findVoidedPass, setVoidReason, updateContentHash } from '../wallet-passes.repo.ts';
import { findMemberCard } from '../../loyalty/loyalty-member.service.ts';
import { deleteDeviceRegistration, findDeviceRegistrations, findPushTokens } from '../apple/passkit.repo.ts';

/** What the delivery jobs of Apple passes need. */
export interface AppleDeliveryDeps extends DeliveryDeps {
  config: WalletConfig;
  appleWallet: AppleWallet;
}

/**
 * The queue of APNs pushes (one device, one pass), with pg-boss's 'short' policy: a push
 * waiting for a device absorbs the next, and nothing more is needed (two pushes of one pass to
 * one device at once do no harm). The earlier queue, 'apple-push', was 'stately', whose fetch
 * checks each candidate against every running push: 30 ms a batch during a drain. A queue's
 * policy is fixed when it is made, hence the new name; the old one is still worked
 * (RETIRED_APPLE_PUSH_QUEUE) for the pushes older processes queue during a deploy and for the
 * Deliveries tab's retries of pushes recorded under it.
 */
export const APPLE_PUSH_QUEUE = 'apns-push';
/** The APNs queue before 'apns-push': still worked; this version sends to it only a staff Retry of a push recorded under it. */
export const RETIRED_APPLE_PUSH_QUEUE = 'apple-push';
/**
 * Pushes a fetch loop sends at once, over the worker's one HTTP/2 connection to APNs: a
 * batch's two statements (its push tokens, its tries) and pg-boss's fetch and complete are
 * paid per batch. APNs says in its SETTINGS how many streams it takes at once (500 when all
 * is well, fewer after rejected pushes); the client holds the rest (apns.ts). 250 drained
 * 10,000 pushes 1.5 times as fast as 100, and 500 1.0 to 1.2 times as fast as 250
 * (bench:deliveries, its APNs double taking 500 streams at once).
 */
export const APPLE_PUSH_BATCH = 500;

export interface ApplePushPayload {
  serialNumber: string;
  deviceLibraryIdentifier: string;
}

type ApplePushJob = RunningJob<ApplePushPayload & DeliveryJobData>;

export type AppleDeliveries = ReturnType<typeof createAppleDeliveries>;

export function createAppleDeliveries(deps: AppleDeliveryDeps) {
  /**
   * A ticket changed (in the ticket-changed job's transaction): what its Apple passes show
   * (its own guest's and each shared guest's) is computed again; when one differs, its update
   * tag moves and every registered device gets a push job (when APNs is configured; otherwise
   * the update is recorded and logged). Why a pass shows voided is recorded with it.
   */
  async function compareTicketPass(tx: Executor, barcode: string): Promise<void> {
    const passes = await findApplePasses(tx, [barcode]);
    if (passes.length === 0) return;
    const row = await deps.tickets.findPass(tx, { orderId: passes[0]!.orderId, barcode });
    if (!row) return;
    for (const pass of passes) {
      const content = await currentPassContent({ ...deps, db: tx }, row, pass.serialNumber, pass);
      if (content.voidReason !== pass.voidReason) await setVoidReason(tx, pass.serialNumber, content.voidReason);
      await deliverIfChanged(tx, pass, content.contentHash);
    }
  }

  /** A loyalty member's ledger or details changed (in the job's transaction): their card is compared and pushed like a ticket's. */
  async function compareMemberCard(tx: Executor, loyaltyAccountId: string): Promise<void> {
    const pass = await findLoyaltyPass(tx, loyaltyAccountId);
    const member = pass?.contentHash
      ? await findMemberCard(tx, loyaltyAccountId, { timeZone: deps.config.parkTimezone, now: deps.at })
      : null;
    if (pass && member) await deliverIfChanged(tx, { ...pass, barcode: null }, loyaltyApplePassContent(member, deps.config).contentHash);
  }

  /** A member card was voided (in the job's transaction): every device that has it is pushed the voided card. */
  async function compareVoidedCard(tx: Executor, serialNumber: string): Promise<void> {
    const pass = await findVoidedPass(tx, serialNumber);
    if (pass) await deliverIfChanged(tx, { ...pass, barcode: null }, voidedLoyaltyApplePassContent(deps.config).contentHash);
  }

  /** When the pass shows something new, its update tag moves and every registered device gets a push job. */
  async function deliverIfChanged(
    tx: Executor,
    pass: { serialNumber: string; contentHash: string | null; barcode: string | null },
    contentHash: string,
  ): Promise<void> {
    if (contentHash === pass.contentHash) return;
    const passUpdatedAt = await updateContentHash(tx, pass.serialNumber, contentHash, deps.at);
    if (!passUpdatedAt) return;
    const { barcode } = pass;
    const details = { serialNumber: pass.serialNumber, ...(barcode && { barcode: maskBarcode(barcode) }) };
    const devices = await findDeviceRegistrations(tx, pass.serialNumber);
    if (devices.length === 0 || !deps.appleWallet.apns) {
      deps.log.info(
        { ...details, devices: devices.length },
        `Apple Wallet pass update recorded; ${devices.length === 0 ? 'no device registered for it' : 'not pushed because APNs is not configured'}`,
      );
      return;
    }
    for (const device of devices) {
      const payload: ApplePushPayload = { serialNumber: pass.serialNumber, deviceLibraryIdentifier: device.deviceLibraryIdentifier };
      await queueDelivery(deps.jobs, tx, {
        queue: APPLE_PUSH_QUEUE,
        target: 'apple',
        barcode,
        recipient: `device ${maskUrl(device.deviceLibraryIdentifier).slice(0, 12)}…`,
        payload,
        // A push waiting for this device already makes it fetch the latest pass.
        singletonKey: `${device.deviceLibraryIdentifier}:${pass.serialNumber}`,
        track: { ...payload, passUpdatedAt },
        at: deps.at,
      });
    }
  }

  /**
   * A batch of APNs pushes, one per device, sent at once: their push tokens read in one
   * statement and their tries recorded in one. A 410 means the device no longer has the pass:
   * its registration is removed and the push is not tried again.
   */
  async function pushToDevices(jobs: ApplePushJob[]): Promise<(Error | null)[]> {
    const apns = deps.appleWallet.apns;
    const tokens = apns
      ? await findPushTokens(
          deps.db,
          jobs.map((job) => job.data),
        )
      : new Map<string, string>();
    const push = async ({ data: { serialNumber, deviceLibraryIdentifier } }: ApplePushJob): Promise<TryOutcome> => {
      if (!apns) return { state: 'skipped', note: 'APNs is not configured' };
      const pushToken = tokens.get(`${deviceLibraryIdentifier} ${serialNumber}`);
      if (!pushToken) return { state: 'skipped', note: 'The device no longer has the pass' };
      const result = await apns.push(pushToken);
      if (result.outcome === 'unregistered') {
        await deleteDeviceRegistration(deps.db, deviceLibraryIdentifier, serialNumber);
        deps.log.info({ serialNumber }, 'Apple Wallet: APNs says the device no longer has the pass; registration removed');
        return { state: 'skipped', note: 'APNs answered 410: the device no longer has the pass; registration removed' };
      }
      if (result.outcome === 'failed')
        throw new Error(`APNs answered ${result.status ?? 'nothing'}${result.reason ? ` (${result.reason})` : ''}`);
      deps.log.info({ serialNumber }, 'Apple Wallet: update pushed to a device');
      return { state: 'sent' };
    };
    return tryDeliveries(deps.db, jobs, push, deps.at);
  }

  return { compareTicketPass, compareMemberCard, compareVoidedCard, pushToDevices };
}
