// The Deliveries tab beyond its generic list: how many deliveries are in each state, and a
// staff Retry of a failed or dead one (audited in the same transaction).
import type { DeliveryState } from '@boardwalk/contract/staff-resources';
import type { Db } from '@boardwalk/db/client';
import { countDeliveriesByState } from '../../platform/jobs/deliveries.repo.ts';
import { retryDelivery } from '../../platform/jobs/delivery.ts';
import type { JobQueue } from '../../platform/jobs/job-queue.ts';
import { AppError } from '../../platform/errors.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { StaffIdentity } from '../auth/auth.service.ts';

export interface DeliveriesContext {
  db: Db;
  jobs: JobQueue;
  staff: Pick<StaffIdentity, 'teamMemberGuid' | 'username'>;
}

export function countDeliveries(db: Db): Promise<Record<DeliveryState, number>> {
  return countDeliveriesByState(db);
}

export async function retryFailedDelivery(ctx: DeliveriesContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await retryDelivery(ctx.jobs, tx, id)))
      throw new AppError('CONFLICT', 'This delivery is no longer failed or dead: refresh the list.');
    await recordAudit(tx, {
      teamMemberGuid: ctx.staff.teamMemberGuid,
      username: ctx.staff.username,
      action: 'retry',
      resource: 'deliveries',
      recordId: id,
      before: null,
      after: null,
    });
  });
}
