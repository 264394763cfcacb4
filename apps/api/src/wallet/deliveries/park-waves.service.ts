// A park-wide change (the park's hours, locations or notices: what every pass shows) reaches
// every wallet as a wave. Google: the classes carry what is the same for every pass, so the
// wave is one request per class (syncClasses), and only the objects whose own fields follow
// the change (a dated admission's hours) are compared. Apple has no classes: every device is
// pushed once, a page of devices at a time, without computing a single pass; each device then
// asks which passes changed (all of them, since the wave began) and fetches each, which is
// compared then and answered 304 where what it shows is the same (passkit.service.ts).
//
// A wave is a row (wallet_waves, its id the first job's) and a chain of short jobs, each
// pushing pages for at most `sliceMs` and queueing the next with its last page: a retried or
// restarted job goes on from the row's cursor, a run that finds the cursor moved stops, and a
// newer wave takes over the rest of an older one. Its pushes take the APNs client's wave lane,
// which leaves streams free for the pushes of a guest's own change.
import type { Db } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import type { AppleWallet } from '../apple/apple-wallet.plugin.ts';
import type { ApnsClient } from '../apple/apns.ts';
import type { RunningJob, JobSender } from '../../platform/jobs/job-queue.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { operatingDay } from '../../platform/park-time.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { deleteRegistrationsOfTokens } from '../apple/passkit.repo.ts';
import { findDevicesAfter, findWave, insertWave, recordWavePage } from '../park-waves.repo.ts';
import { findDatedBarcodesWithGoogleObjects } from '../wallet-passes.repo.ts';

/** The queue of a wave's slices. */
export const PARK_WAVE_QUEUE = 'park-wave';
/** How long a slice may run before pg-boss takes it for dead: well past a slice and its last page. */
export const PARK_WAVE_EXPIRE_SECONDS = 600;

/** A wave's job: the first names the change, the next ones the wave they go on with. */
export type ParkWaveJob = { reason: string } | { waveId: string };

export interface ParkWaveDeps {
  db: Db;
  appleWallet: Pick<AppleWallet, 'apns'>;
  jobs: JobSender;
  changes: ChangeBus;
  config: { parkTimezone: string };
  log: FastifyBaseLogger;
}

export interface WaveSizes {
  /** Devices read and pushed at once. */
  page: number;
  /** How long one job pushes before it hands the rest to the next. */
  sliceMs: number;
}

/** Dated tickets published per transaction for their Google objects' compare. */
const DATED_PAGE = 1000;
/** A push APNs did not take is sent once more after this long. */
const RETRY_AFTER_MS = 1000;

export type ParkWaves = ReturnType<typeof createParkWaves>;

type Device = { deviceLibraryIdentifier: string; pushToken: string };

/** Pushes every device of a page in the wave lane; the ones that failed once more, a second later. */
async function pushPage(apns: ApnsClient, devices: Device[]) {
  const outcomes = await Promise.all(devices.map((d) => apns.push(d.pushToken, 'wave')));
  const failed = outcomes.flatMap((o, i) => (o.outcome === 'failed' ? [i] : []));
  if (failed.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    const again = await Promise.all(failed.map((i) => apns.push(devices[i]!.pushToken, 'wave')));
    failed.forEach((i, k) => (outcomes[i] = again[k]!));
  }
  return outcomes;
}

export function createParkWaves(deps: ParkWaveDeps, sizes: WaveSizes = { page: 2000, sliceMs: 10_000 }) {
  /**
   * A park-wide change begins its wave (again, when its job is retried): the row, whose moment
   * tells devices every pass may have changed, and the Google objects of dated tickets from
   * today on compared (their hours), in the wave's lane.
   */
  async function begin(waveId: string, reason: string): Promise<void> {
    await insertWave(deps.db, waveId, reason);
    const today = operatingDay(new Date(), deps.config.parkTimezone);
    for (let after: string | null = null; ;) {
      const barcodes = await findDatedBarcodesWithGoogleObjects(deps.db, today, after, DATED_PAGE);
      if (barcodes.length === 0) break;
      await deps.db.transaction((tx) => deps.changes.publish(tx, TICKET_CHANGED, barcodes, null, { wave: true }));
      after = barcodes.at(-1)!;
    }
  }

  /** One slice of the wave: pages of devices pushed until done, superseded, or out of time (then the next slice is queued). */
  async function run(job: RunningJob<ParkWaveJob>): Promise<void> {
    const waveId = 'waveId' in job.data ? job.data.waveId : job.id;
    if ('reason' in job.data) await begin(waveId, job.data.reason);
    const { apns } = deps.appleWallet;
    const until = Date.now() + sizes.sliceMs;
    for (let found = await findWave(deps.db, waveId); found && !found.wave.finishedAt; found = await findWave(deps.db, waveId)) {
      const from = found.wave.cursor;
      const devices = found.superseded || !apns ? [] : await findDevicesAfter(deps.db, from, sizes.page);
      const outcomes = apns ? await pushPage(apns, devices) : [];
      const gone = devices.filter((_, i) => outcomes[i]?.outcome === 'unregistered').map((d) => d.pushToken);
      if (gone.length > 0) await deleteRegistrationsOfTokens(deps.db, gone);
      const finished = devices.length < sizes.page;
      const next = !finished && Date.now() > until;
      const page = {
        cursor: devices.at(-1)?.deviceLibraryIdentifier ?? from,
        devices: devices.length,
        pushed: outcomes.filter((o) => o.outcome === 'sent').length,
        unregistered: gone.length,
        failed: outcomes.filter((o) => o.outcome === 'failed').length,
        finished,
      };
      const recorded = await deps.db.transaction(async (tx) => {
        if (!(await recordWavePage(tx, waveId, from, page))) return false;
        if (next) await deps.jobs.send(tx, { name: PARK_WAVE_QUEUE, data: { waveId }, singletonKey: `wave:${waveId}` });
        return true;
      });
      if (page.failed > 0)
        deps.log.warn(
          { waveId, failed: page.failed },
          'Park-wide wave: APNs refused pushes twice; those devices get the change at their next push',
        );
      if (!recorded || next) return;
      if (finished) {
        const wave = (await findWave(deps.db, waveId))?.wave;
        const how = found.superseded
          ? 'a newer wave pushes the devices left'
          : apns
            ? 'every device pushed'
            : 'recorded; not pushed because APNs is not configured';
        deps.log.info(
          { waveId, devices: wave?.devices, pushed: wave?.pushed, unregistered: wave?.unregistered, failed: wave?.failed },
          `Park-wide wave: ${how}`,
        );
        return;
      }
    }
  }

  return { run };
}
