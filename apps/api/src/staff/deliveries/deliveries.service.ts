// The Deliveries tab beyond its generic list: how many deliveries are in each state, the
// proof of delivery of Apple pushes, and a staff Retry of a failed or dead one (audited in
// the same transaction).
import type { DeliveryState } from '@boardwalk/contract/deliveries';
import type { ApplePushReport } from '@boardwalk/contract/staff-operations-tabs';
import type { Db } from '@boardwalk/db/client';
import { countDeliveriesByState } from '../../platform/jobs/deliveries.repo.ts';
import { retryDelivery } from '../../platform/jobs/delivery.ts';
import type { JobSender } from '../../platform/jobs/job-queue.ts';
import { applePushFigures, findSilentDevices } from '../../wallet/deliveries/apple-push-fetches.repo.ts';
import { AppError } from '../../platform/errors.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';

/** What the Deliveries tab is built with, once (deliveries.routes.ts). */
export interface DeliveriesDeps {
  db: Db;
  jobs: JobSender;
}

export function countDeliveries(db: Db): Promise<Record<DeliveryState, number>> {
  return countDeliveriesByState(db);
}

/** The last 24 hours of Apple pushes as of `now` (a later clock in tests), and the devices that stopped fetching. */
export async function reportApplePushes(db: Db, now = new Date()): Promise<ApplePushReport> {
  const [figures, silent] = await Promise.all([applePushFigures(db, now), findSilentDevices(db, now)]);
  return {
    ...figures,
    since: figures.since.toISOString(),
    silentDevices: silent.map(({ recipient, barcode, unfetchedPushes, lastPushAt }) => ({
      recipient,
      barcode,
      unfetchedPushes,
      lastPushAt: lastPushAt.toISOString(),
    })),
  };
}

export async function retryFailedDelivery(deps: DeliveriesDeps, { staff, id }: { staff: StaffActor; id: string }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await retryDelivery(deps.jobs, tx, id)))
      throw new AppError('CONFLICT', 'This delivery is no longer failed or dead: refresh the list.');
    await recordAudit(tx, {
      teamMemberGuid: staff.teamMemberGuid,
      username: staff.username,
      action: 'retry',
      resource: 'deliveries',
      recordId: id,
      before: null,
      after: null,
    });
  });
}
