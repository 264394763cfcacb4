// A park-wide change (the park's hours or locations, what every pass shows) reaches every
// wallet as a wave. Google: the classes carry what is the same for every pass, so the wave is
// one request per class (syncClasses), and only the objects whose own fields follow the change
// (a dated admission's hours) are compared. Apple has no classes: every device is pushed once,
// a page of devices at a time, without computing a single pass; each device then asks which
// passes changed (all of them, since the wave began) and fetches each, which is compared
// then and answered 304 where what it shows is the same (passkit.service.ts).
//
// A wave is a row (wallet_waves) and a chain of short jobs, each pushing pages for at most
// WAVE_SLICE_MS before queueing the next: a restart goes on from the row's cursor, and a
// newer wave takes over the rest of an older one. Its pushes take the APNs client's wave lane,
// which leaves streams free for the pushes of a guest's own change, and its jobs run beside
// the own-change queues rather than before them.
import type { Db } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppleWallet } from '../apple/apple-wallet.plugin.ts';
import type { RunningJob, JobSender } from '../../platform/jobs/job-queue.ts';
import { deleteRegistrationsOfTokens } from '../apple/passkit.repo.ts';
import { findDevicesAfter, findWave, insertWave, recordWavePage } from '../park-waves.repo.ts';
import { findDatedBarcodesWithGoogleObjects } from '../wallet-passes.repo.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { operatingDay } from '../../platform/park-time.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';

/** The queue of a wave's slices. */
export const PARK_WAVE_QUEUE = 'park-wave';

/** Devices read and pushed at once. */
export const WAVE_PAGE = 2000;
/** How long one job of a wave pushes before it hands the rest to the next. */
const WAVE_SLICE_MS = 10_000;

export interface ParkWaveDeps {
  db: Db;
  appleWallet: Pick<AppleWallet, 'apns'>;
  jobs: JobSender;
  changes: ChangeBus;
  config: { parkTimezone: string };
  log: FastifyBaseLogger;
}

/** A wave's job: the first names the change, the next ones the wave they go on with. */
export type ParkWaveJob = { reason: string } | { waveId: string };

/** Dated tickets published per transaction for their Google objects' compare. */
const DATED_PAGE = 1000;

export type ParkWaves = ReturnType<typeof createParkWaves>;

export function createParkWaves(deps: ParkWaveDeps) {
  /**
   * A park-wide change begins its wave: the row, whose moment tells devices every pass may have
   * changed, and the Google objects of dated tickets from today on compared (their hours), in
   * the wave's lane.
   */
  async function begin(reason: string): Promise<string> {
    const waveId = await deps.db.transaction((tx) => insertWave(tx, reason));
    const today = operatingDay(new Date(), deps.config.parkTimezone);
    for (let after: string | null = null; ;) {
      const barcodes = await findDatedBarcodesWithGoogleObjects(deps.db, today, after, DATED_PAGE);
      if (barcodes.length === 0) break;
      await deps.db.transaction((tx) => deps.changes.publish(tx, TICKET_CHANGED, barcodes, null, { wave: true }));
      after = barcodes.at(-1)!;
    }
    return waveId;
  }

  /** One slice of the wave: pages of devices pushed until done, superseded, or out of time (then the next slice is queued). */
  async function run(job: RunningJob<ParkWaveJob>): Promise<void> {
    const waveId = 'waveId' in job.data ? job.data.waveId : await begin(job.data.reason);
    const found = await findWave(deps.db, waveId);
    if (!found || found.wave.finishedAt) return;
    const { apns } = deps.appleWallet;
    let cursor = found.wave.cursor;
    const until = Date.now() + WAVE_SLICE_MS;
    for (;;) {
      if (found.superseded || (await findWave(deps.db, waveId))?.superseded) {
        await recordWavePage(deps.db, waveId, { cursor, devices: 0, pushed: 0, unregistered: 0, failed: 0, finished: true });
        deps.log.info({ waveId }, 'Park-wide wave: a newer wave pushes the devices left');
        return;
      }
      const devices = await findDevicesAfter(deps.db, cursor, WAVE_PAGE);
      const outcomes = apns ? await Promise.all(devices.map((d) => apns.push(d.pushToken, 'wave'))) : [];
      const gone = devices.filter((_, i) => outcomes[i]?.outcome === 'unregistered').map((d) => d.pushToken);
      if (gone.length > 0) await deleteRegistrationsOfTokens(deps.db, gone);
      const failed = outcomes.filter((o) => o.outcome === 'failed').length;
      cursor = devices.at(-1)?.deviceLibraryIdentifier ?? cursor;
      const finished = devices.length < WAVE_PAGE;
      await recordWavePage(deps.db, waveId, {
        cursor,
        devices: devices.length,
        pushed: outcomes.filter((o) => o.outcome === 'sent').length,
        unregistered: gone.length,
        failed,
        finished,
      });
      if (failed > 0)
        deps.log.warn({ waveId, failed }, 'Park-wide wave: APNs refused pushes; those devices get the change at their next push or fetch');
      if (finished) {
        const wave = (await findWave(deps.db, waveId))?.wave;
        deps.log.info(
          { waveId, devices: wave?.devices, pushed: wave?.pushed, unregistered: wave?.unregistered, failed: wave?.failed },
          apns ? 'Park-wide wave: every device pushed' : 'Park-wide wave recorded; not pushed because APNs is not configured',
        );
        return;
      }
      if (Date.now() > until) {
        await deps.db.transaction((tx) =>
          deps.jobs.send(tx, { name: PARK_WAVE_QUEUE, data: { waveId }, singletonKey: `${waveId}:${cursor}` }),
        );
        return;
      }
    }
  }

  return { run };
}
