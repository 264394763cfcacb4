// The Wristbands tab beyond its generic list: Deactivate of a lost band (its own permission,
// audited in the same transaction). The ticket may then bind a new band; the lost band never
// binds again (its row stays, and a band binds once, ever).
import { wristbandBindings } from '@boardwalk/contract/staff-wristband-tabs';
import type { Db } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import { deactivateBinding, findBindingForUpdate } from '../../guest/wristband/wristband.repo.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';
import { prepareResource, toApiRow, toAuditRow, type ApiRow } from '../resources/resources.service.ts';

/** The staff member who acts, and on which binding. */
export interface DeactivateWristband {
  staff: StaffActor;
  id: string;
}

const resource = prepareResource(wristbandBindings);

/** POST /api/admin/wristbands/deactivate/{id}: answers the row as the tab lists it. */
export async function deactivateWristband(db: Db, { staff, id }: DeactivateWristband): Promise<ApiRow> {
  return db.transaction(async (tx) => {
    const before = await findBindingForUpdate(tx, id);
    if (!before) throw new AppError('NOT_FOUND', 'This wristband binding no longer exists: refresh the list.');
    const after = await deactivateBinding(tx, id, staff.username);
    if (!after) throw new AppError('CONFLICT', 'This wristband was already deactivated: refresh the list.');
    await recordAudit(tx, {
      teamMemberGuid: staff.teamMemberGuid,
      username: staff.username,
      action: 'deactivate',
      resource: wristbandBindings.key,
      recordId: id,
      before: toAuditRow(resource, before),
      after: toAuditRow(resource, after),
    });
    return toApiRow(resource, after);
  });
}
