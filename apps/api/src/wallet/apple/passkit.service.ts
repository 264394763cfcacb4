// Apple's PassKit web service: devices register and unregister for a pass, ask which of
// their passes changed since a tag, and fetch the latest version of one. Every call names a
// pass and carries its token (`Authorization: ApplePass <token>`), except the device's list.
import type { Executor } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppleWallet } from './apple-wallet.plugin.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { hashSecret, sameSecret } from '../../platform/secrets.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { TicketCore } from '../../guest/ticket/ticket.service.ts';
import { currentContentOf, passTokenOf, type PassContent, type WalletConfig } from './apple-pass-content.service.ts';
import { recordPushesFetched, recordPushesListed } from '../deliveries/apple-push-fetches.repo.ts';
import { recordWalletEvent } from '../wallet-events.repo.ts';
import { findPassBySerialNumber, findUpdatedAt, updateContentHash } from '../wallet-passes.repo.ts';
import { findNewestWaveTag } from '../park-waves.repo.ts';
import {
  deleteDeviceRegistration,
  deleteDeviceRegistrations,
  findUpdatedSerialNumbers,
  isLegacyPassToken,
  lockPass,
  trimDeviceRegistrations,
  upsertDeviceRegistration,
} from './passkit.repo.ts';

export interface PassKitDeps {
  db: Executor;
  tickets: Pick<TicketCore, 'findPass'>;
  /** The server key every pass's authentication token is derived from. */
  keys: Keys;
  changes: ChangeBus;
  config: WalletConfig;
  appleWallet: AppleWallet;
  log: FastifyBaseLogger;
  /** The past time the devices' calls are recorded at (the demo's history, as LedgerChanges.at); unset: now. */
  at?: Date | undefined;
}

/** The token of an `Authorization: ApplePass <token>` header, or null. */
function applePassToken(authorization: string | undefined): string | null {
  const match = /^ApplePass ([A-Za-z0-9_\-+/=]{16,200})$/.exec(authorization?.trim() ?? '');
  return match?.[1] ?? null;
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'The pass authentication token is not valid');
const passTypeNotServed = () => new AppError('NOT_FOUND', 'Unknown pass type identifier');

export interface RegistrationInput {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  serialNumber: string;
  authorization: string | undefined;
}

export type PassKitService = ReturnType<typeof createPassKitService>;

export function createPassKitService(deps: PassKitDeps) {
  function assertPassType(passTypeIdentifier: string) {
    if (passTypeIdentifier !== deps.config.apple.passTypeId) throw passTypeNotServed();
  }

  /**
   * The pass a web service call names, when its token is the pass's own (derived from the
   * serial number) or one the pass was issued with before tokens were derived.
   */
  async function authenticatedPass(serialNumber: string, authorization: string | undefined) {
    const token = applePassToken(authorization);
    if (!token) throw unauthorized();
    const valid =
      sameSecret(token, passTokenOf(deps.keys, serialNumber)) || (await isLegacyPassToken(deps.db, serialNumber, hashSecret(token)));
    if (!valid) throw unauthorized();
    const pass = await findPassBySerialNumber(deps.db, serialNumber);
    if (!pass) throw unauthorized();
    return { pass, token };
  }

  /**
   * A device added the pass: from now on the ticket is bound to a wallet and the device gets
   * pushes. A pass keeps at most PASSKIT_DEVICES_PER_PASS devices: a new one pushes out the
   * registration least recently renewed (a guest who changes phones keeps getting updates on
   * the new one; Apple's web service has no "too many" answer a device would show). A voided
   * member card takes no new device (answered as already registered).
   */
  async function registerDevice(input: RegistrationInput & { pushToken: string }): Promise<'created' | 'updated'> {
    assertPassType(input.passTypeIdentifier);
    const { pass } = await authenticatedPass(input.serialNumber, input.authorization);
    if (pass.voidedAt) return 'updated';
    // Binding the ticket to a wallet is a ticket change: published with it.
    const { outcome, removed } = await deps.db.transaction(async (tx) => {
      if (!(await lockPass(tx, pass.serialNumber))) throw unauthorized();
      const result = await upsertDeviceRegistration(
        tx,
        {
          deviceLibraryIdentifier: input.deviceLibraryIdentifier,
          serialNumber: pass.serialNumber,
          pushToken: input.pushToken,
        },
        deps.at,
      );
      const trimmed = await trimDeviceRegistrations(tx, pass.serialNumber, input.deviceLibraryIdentifier, deps.config.apple.devicesPerPass);
      if (pass.barcode) await deps.changes.publish(tx, TICKET_CHANGED, [pass.barcode]);
      if (result === 'created') await recordWalletEvent(tx, 'wallet.pass_added', 'apple', pass.serialNumber);
      return { outcome: result, removed: trimmed };
    });
    deps.log.info(
      { serialNumber: pass.serialNumber, outcome, ...(removed > 0 && { removed }) },
      'Apple Wallet: device registered for a pass',
    );
    return outcome;
  }

  /** A device removed the pass. */
  async function unregisterDevice(input: RegistrationInput): Promise<void> {
    assertPassType(input.passTypeIdentifier);
    const { pass } = await authenticatedPass(input.serialNumber, input.authorization);
    const removed = await deps.db.transaction(async (tx) => {
      const deleted = await deleteDeviceRegistration(tx, input.deviceLibraryIdentifier, pass.serialNumber);
      if (deleted && pass.barcode) await deps.changes.publish(tx, TICKET_CHANGED, [pass.barcode]);
      if (deleted) await recordWalletEvent(tx, 'wallet.pass_removed', 'apple', pass.serialNumber);
      return deleted;
    });
    deps.log.info({ serialNumber: pass.serialNumber, removed }, 'Apple Wallet: device unregistered from a pass');
  }

  /**
   * The device's passes updated since the tag; null when none (answered 204). A voided member
   * card in the answer is the device's last news of it: its registration is removed (the
   * device fetches the voided card with the card's token, which keeps working, and is pushed
   * nothing more).
   */
  async function updatedSerialNumbers(input: {
    deviceLibraryIdentifier: string;
    passTypeIdentifier: string;
    passesUpdatedSince?: string | undefined;
  }): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
    assertPassType(input.passTypeIdentifier);
    // Since a park-wide wave began, every pass may have changed: a device whose tag is older
    // gets all of its passes listed (each fetch answers 304 where nothing changed for it).
    const waveTag = await findNewestWaveTag(deps.db);
    const since = input.passesUpdatedSince;
    const sinceWave = since !== undefined && waveTag !== null && BigInt(waveTag) > BigInt(since);
    const rows = await findUpdatedSerialNumbers(deps.db, input.deviceLibraryIdentifier, sinceWave ? undefined : since);
    // Nothing is recorded of a 204: this call has no pass token to prove who makes it.
    if (rows.length === 0) return null;
    const voided = rows.filter((r) => r.voided).map((r) => r.serialNumber);
    if (voided.length > 0) {
      const removed = await deleteDeviceRegistrations(deps.db, input.deviceLibraryIdentifier, voided);
      deps.log.info({ serialNumbers: voided, removed }, 'Apple Wallet: device told of its voided cards; registrations removed');
    }
    const serialNumbers = rows.map((r) => r.serialNumber);
    await recordPushesListed(deps.db, input.deviceLibraryIdentifier, serialNumbers, deps.at);
    const lastUpdated = [waveTag ?? '0', ...rows.map((r) => r.tag)].reduce((max, tag) => (BigInt(tag) > BigInt(max) ? tag : max));
    return { serialNumbers, lastUpdated };
  }

  /**
   * The latest version of a pass, signed anew with the device's own token; null when not
   * modified since. A pass answered (200) is the proof of delivery of the pushes that
   * announced it (see apple-push-fetches.repo.ts).
   */
  async function latestPass(input: {
    passTypeIdentifier: string;
    serialNumber: string;
    authorization: string | undefined;
    ifModifiedSince: string | undefined;
  }): Promise<{ pkpass: Buffer; lastModified: Date } | { notModified: true; lastModified: Date }> {
    assertPassType(input.passTypeIdentifier);
    const { pass, token } = await authenticatedPass(input.serialNumber, input.authorization);
    let { updatedAt } = pass;
    let content: PassContent | null = null;
    // A park-wide wave since the pass last changed: what it shows is compared now, and its
    // update tag moves only when that differs (the wave computed no pass).
    if (pass.changedByWave) {
      content = await currentContentOf(deps, pass);
      if (!content) throw unauthorized();
      // Another device's fetch may have moved it meanwhile (a phone and its watch, pushed together): its tag is read again.
      if (content.contentHash !== pass.contentHash)
        updatedAt =
          (await updateContentHash(deps.db, pass.serialNumber, content.contentHash, deps.at)) ??
          (await findUpdatedAt(deps.db, pass.serialNumber)) ??
          updatedAt;
    }
    // HTTP dates have whole seconds.
    const lastModified = new Date(Math.floor(updatedAt.getTime() / 1000) * 1000);
    const since = input.ifModifiedSince ? Date.parse(input.ifModifiedSince) : Number.NaN;
    if (!Number.isNaN(since) && lastModified.getTime() <= since) return { notModified: true, lastModified };

    content ??= await currentContentOf(deps, pass);
    if (!content) throw unauthorized();
    const pkpass = deps.appleWallet.builder.build({ ...content.pass, authenticationToken: token }, content.files);
    const fetched = await recordPushesFetched(deps.db, pass.serialNumber, updatedAt, deps.at);
    if (fetched > 0) deps.log.info({ serialNumber: pass.serialNumber, pushes: fetched }, 'Apple Wallet: a pushed device fetched the pass');
    return { pkpass, lastModified };
  }

  return { registerDevice, unregisterDevice, updatedSerialNumbers, latestPass };
}
