// The member cards of the demo's history in the wallets, carried out through the wallet's own
// services at their past times (their `at`, as the loyalty core's LedgerChanges.at). A member
// adds the card: Apple's .pkpass, then each device registers with the PassKit web service; or
// Google's save link, then Google's save callback. After each step the wallet's job compares the
// cards the step changed and queues their deliveries, which the demo runs as the queue would:
// stand-ins for APNs and Google's REST API answer as the plan's devices and objects would
// (nothing leaves the machine), and a device that fetches lists its updated passes and fetches
// the card, the proof of delivery. In the demo load's transaction.
import { randomUUID } from 'node:crypto';
import type { DeliveryState } from '@boardwalk/contract/deliveries';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { TicketCore } from '../guest/ticket/ticket.service.ts';
import { LOYALTY_ACCOUNT_CHANGED, LOYALTY_TIERS_CHANGED } from '../loyalty/loyalty.topics.ts';
import type { Config } from '../platform/config.ts';
import { countDeliveriesByState } from '../platform/jobs/deliveries.repo.ts';
import type { DeliveryJobData } from '../platform/jobs/delivery.ts';
import type { JobSender, RunningJob } from '../platform/jobs/job-queue.ts';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import type { Keys } from '../platform/keys.plugin.ts';
import type { ApnsClient } from '../wallet/apple/apns.ts';
import { passTokenOf } from '../wallet/apple/apple-pass-content.service.ts';
import type { AppleWallet } from '../wallet/apple/apple-wallet.plugin.ts';
import { createAppleWalletService } from '../wallet/apple/apple-wallet.service.ts';
import { createPassKitService } from '../wallet/apple/passkit.service.ts';
import { APPLE_PUSH_QUEUE, createAppleDeliveries, type ApplePushPayload } from '../wallet/deliveries/apple-deliveries.service.ts';
import { createGoogleDeliveries, type GoogleUpdatePayload } from '../wallet/deliveries/google-deliveries.service.ts';
import { acceptCallback } from '../wallet/google/google-callbacks.service.ts';
import { loyaltyClass } from '../wallet/google/google-member-card-content.service.ts';
import { createGoogleWalletService } from '../wallet/google/google-wallet.service.ts';
import type { GoogleWallet } from '../wallet/google/google-wallet.ts';
import { findLoyaltyPass } from '../wallet/wallet-passes.repo.ts';
import { generator, type PlannedCard, type PlannedDevice } from './demo-plan.service.ts';

/** APNs and Google answer a delivery this long after it was queued. */
const ANSWERED_AFTER_MS = 400;

export interface WalletHistoryDeps {
  db: Executor;
  /** The app's change bus: what the history publishes besides the wallet's own topics. */
  changes: ChangeBus;
  keys: Keys;
  config: Config;
  tickets: TicketCore;
  appleWallet: AppleWallet;
  googleWallet: GoogleWallet;
  log: FastifyBaseLogger;
}

export interface WalletReport {
  appleCards: number;
  appleDevices: number;
  googleCards: number;
  removed: number;
  deliveries: Record<DeliveryState, number>;
}

type Job = { name: string; job: RunningJob<DeliveryJobData> };
/** A device as the history plays it: the plan's, its own numbers (how soon it fetches), the update tag it last listed. */
type PlayedDevice = { device: PlannedDevice; rng: ReturnType<typeof generator>; tag?: string };

/** The wallet's side of the history, nothing later than `now`. */
export function createWalletHistory(deps: WalletHistoryDeps, now: Date) {
  const { db, keys, config } = deps;
  const passTypeIdentifier = config.apple.passTypeId;
  const report = { appleCards: 0, appleDevices: 0, googleCards: 0, removed: 0 };
  /** The accounts with a card, and those the current step changed. */
  const holders = new Set<string>();
  const changed = new Set<string>();
  /** The devices by id, and their kinds by push token (what APNs knows them by). */
  const devices = new Map<string, PlayedDevice>();
  const kinds = new Map<string, PlannedDevice['kind']>();
  /** Google objects whose link no guest saved, and each saved object's version. */
  const unsaved = new Set<string>();
  const versions = new Map<string, number>();
  const queued: Job[] = [];

  /** The wallet's topics are carried out at each step's time (follow); the rest is published. */
  const changes: ChangeBus = {
    async publish(tx, topic, ids, system) {
      if (topic === LOYALTY_ACCOUNT_CHANGED) for (const id of ids) changed.add(id);
      // Every card republished (the tiers, the expiry job's first pass).
      else if (topic === LOYALTY_TIERS_CHANGED) for (const id of holders) changed.add(id);
      else await deps.changes.publish(tx, topic, ids, system);
    },
  };
  // A delivery's job is run here, at its time: long done, and gone from the queue, by today.
  const jobs: JobSender = {
    async send(_tx, { name, data }) {
      const id = randomUUID();
      queued.push({ name, job: { id, data: data as DeliveryJobData, retryCount: 0, retryLimit: config.deliveries.retryLimit } });
      return id;
    },
  };
  const apns: ApnsClient = {
    async push(pushToken) {
      const kind = kinds.get(pushToken);
      if (kind === 'stale') return { outcome: 'failed', status: 400, reason: 'BadDeviceToken' };
      return kind === 'wiped' ? { outcome: 'unregistered', status: 410 } : { outcome: 'sent' };
    },
    close: async () => {},
  };
  const googleWallet: GoogleWallet = {
    ...deps.googleWallet,
    updatesObjects: true,
    async updateObject({ object }) {
      if (unsaved.has(object.id)) return 'not-saved';
      const version = (versions.get(object.id) ?? 0) + 1;
      versions.set(object.id, version);
      return { version: String(version) };
    },
  };
  const base = {
    ...deps,
    changes,
    jobs,
    googleWallet,
    appleWallet: { ...deps.appleWallet, apns },
    // What the services log of each card and delivery is the history's detail, not the start's.
    log: deps.log.child({ module: 'demo-wallet' }, { level: 'warn' }),
  };
  /** The services' dependencies at a time of the history (never after now). */
  const at = (ms: number) => ({ ...base, at: new Date(Math.min(ms, now.getTime())) });
  const authorization = (serialNumber: string) => `ApplePass ${passTokenOf(keys, serialNumber)}`;
  const serialOf = async (accountId: string) => (await findLoyaltyPass(db, accountId))!.serialNumber;
  const googleObject = (serialNumber: string) => `${deps.googleWallet.issuerId}.${serialNumber}`;
  const googleCallback = (eventType: 'save' | 'del', serialNumber: string, ms: number) =>
    acceptCallback(
      db,
      changes,
      {
        eventType,
        classId: loyaltyClass(deps.googleWallet.issuerId, config).id,
        objectId: googleObject(serialNumber),
        nonce: randomUUID(),
        expiresAt: new Date(ms + 3600_000),
      },
      serialNumber,
      new Date(ms),
    );

  /** A member adds their card at `time`: Apple's, then each device registers seconds apart; Google's, then (saved) Google's callback. */
  async function addCard(accountId: string, email: string, card: PlannedCard, time: Date): Promise<void> {
    const t = time.getTime();
    const request = { email, walletToken: keys.signToken(LOYALTY_WALLET_TOKEN.purpose, accountId, LOYALTY_WALLET_TOKEN.ttlSeconds) };
    holders.add(accountId);
    if (card.wallet === 'google') {
      await createGoogleWalletService(base).createMemberCardLink(request);
      const serialNumber = await serialOf(accountId);
      if (!card.saved) unsaved.add(googleObject(serialNumber));
      else await googleCallback('save', serialNumber, t + 20_000);
      report.googleCards++;
      return;
    }
    await createAppleWalletService(at(t)).createMemberCard(request);
    const serialNumber = await serialOf(accountId);
    for (const [i, device] of card.devices.entries()) {
      devices.set(device.id, { device, rng: generator(Number.parseInt(device.id.slice(0, 8), 16)) });
      kinds.set(device.pushToken, device.kind);
      await createPassKitService(at(t + (i + 1) * 15_000)).registerDevice({
        deviceLibraryIdentifier: device.id,
        passTypeIdentifier,
        serialNumber,
        authorization: authorization(serialNumber),
        pushToken: device.pushToken,
      });
      report.appleDevices++;
    }
    report.appleCards++;
  }

  /** A member removes their card: from their first Apple device (it unregisters), or from Google Wallet (Google's callback). */
  async function removeCard(accountId: string, card: PlannedCard, time: Date): Promise<void> {
    const serialNumber = await serialOf(accountId);
    if (card.wallet === 'google') await googleCallback('del', serialNumber, time.getTime());
    else
      await createPassKitService(at(time.getTime())).unregisterDevice({
        deviceLibraryIdentifier: card.devices[0]!.id,
        passTypeIdentifier,
        serialNumber,
        authorization: authorization(serialNumber),
      });
    report.removed++;
  }

  /**
   * After a step at `time`: the wallet's job compares the cards it changed (loyalty-account-changed,
   * DELIVERY_COALESCE_SECONDS later), and the pushes and updates it queued are sent.
   */
  async function follow(time: Date): Promise<void> {
    const t = time.getTime() + config.deliveries.coalesceSeconds * 1000;
    const [apple, google] = [createAppleDeliveries(at(t)), createGoogleDeliveries(at(t))];
    for (const accountId of changed) {
      if (!holders.has(accountId)) continue;
      await apple.compareMemberCard(db, accountId);
      await google.compareObject(db, { loyaltyAccountId: accountId });
    }
    changed.clear();
    for (const { name, job } of queued.splice(0)) {
      if (name === APPLE_PUSH_QUEUE) await push(job as RunningJob<ApplePushPayload & DeliveryJobData>, t + ANSWERED_AFTER_MS);
      else await createGoogleDeliveries(at(t + ANSWERED_AFTER_MS)).updateObject(job as RunningJob<GoogleUpdatePayload & DeliveryJobData>);
    }
  }

  /** One push, tried again as the queue would (DELIVERY_RETRY_DELAY_SECONDS, doubling) until it goes or is dead; then its device fetches. */
  async function push(job: RunningJob<ApplePushPayload & DeliveryJobData>, t: number): Promise<void> {
    for (;;) {
      const [error] = await createAppleDeliveries(at(t)).pushToDevices([job]);
      if (!error) break;
      if (job.retryCount >= job.retryLimit) return;
      t += config.deliveries.retryDelaySeconds * 1000 * 2 ** job.retryCount;
      job = { ...job, retryCount: job.retryCount + 1 };
    }
    const played = devices.get(job.data.deviceLibraryIdentifier);
    if (played?.device.kind === 'fetches') await fetchCard(played, t);
  }

  /**
   * The device woken by a push asks which of its passes changed and fetches each: seconds
   * later, now and then minutes (asleep); not at all when that would be after now.
   */
  async function fetchCard(played: PlayedDevice, sentAt: number): Promise<void> {
    const { rng } = played;
    const listed = sentAt + (rng.next() < 0.85 ? rng.int(2, 45) : rng.int(60, 40 * 60)) * 1000;
    if (listed + 1000 > now.getTime()) return;
    const updated = await createPassKitService(at(listed)).updatedSerialNumbers({
      deviceLibraryIdentifier: played.device.id,
      passTypeIdentifier,
      passesUpdatedSince: played.tag,
    });
    if (!updated) return;
    played.tag = updated.lastUpdated;
    const passkit = createPassKitService(at(listed + 800));
    for (const serialNumber of updated.serialNumbers)
      await passkit.latestPass({
        passTypeIdentifier,
        serialNumber,
        authorization: authorization(serialNumber),
        ifModifiedSince: undefined,
      });
  }

  return {
    changes,
    addCard,
    removeCard,
    follow,
    /** What the history made, with the deliveries in each state. */
    report: async (): Promise<WalletReport> => ({ ...report, deliveries: await countDeliveriesByState(db) }),
  };
}
