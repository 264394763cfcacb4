// The Privacy tab: everything held about a person, found by an email address, a phone number or
// a barcode, as one JSON document, and erased. Each export and each erasure is audited (who,
// when, what was found or erased) under a keyed hash of what was asked: the log can tell that
// the same person was asked for twice, never who they are.
import type { PassLockLifted, PrivacyErasure, PrivacyExport, PrivacyQuery, PrivacySections } from '@boardwalk/contract/privacy';
import { AppError } from '../../platform/errors.ts';
import { liftPassLock } from '../../guest/ticket/pass-lock.repo.ts';
import type { Executor } from '@boardwalk/db/client';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { FastifyInstance } from 'fastify';
import { revokeLinksOf } from '../../guest/privacy/privacy-request.service.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';

export interface PrivacyDeps {
  db: Executor;
  keys: Keys;
  privacy: FastifyInstance['privacy'];
}

export const PRIVACY_AUDIT_RESOURCE = 'privacy';

/** What a query names a person by (`email`, or `firstName+lastName+orderId`), and the value (the values, space-separated). */
const queried = (query: PrivacyQuery): [string, string] => {
  const given = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return [given.map(([kind]) => kind).join('+'), given.map(([, value]) => value).join(' ')];
};

/** What a query asked, as the audit log keeps it: a keyed hash (HMAC with a server key). */
export function queryHash(keys: Keys, query: PrivacyQuery): string {
  const [kind, value] = queried(query);
  return keys.keyedHash('privacy-query', `${kind}:${value.toLowerCase()}`);
}

/** How many items each section holds (what the audit entry says was found). */
const countsOf = (sections: PrivacySections) => Object.fromEntries(Object.entries(sections).map(([key, items]) => [key, items.length]));

/** POST /api/admin/privacy/export: the person's document, audited. */
export async function exportPersonalData(deps: PrivacyDeps, staff: StaffActor, query: PrivacyQuery): Promise<PrivacyExport> {
  const { sections } = await deps.privacy.find(query);
  await recordAudit(deps.db, {
    teamMemberGuid: staff.teamMemberGuid,
    username: staff.username,
    action: 'export',
    resource: PRIVACY_AUDIT_RESOURCE,
    recordId: queryHash(deps.keys, query),
    after: { asked: queried(query)[0], found: countsOf(sections) },
  });
  return { exportedAt: new Date().toISOString(), query, ...sections };
}

/** POST /api/admin/privacy/erase: everything held about the person erased in one transaction, with its audit entry. */
export async function erasePersonalDataOf(deps: PrivacyDeps, staff: StaffActor, query: PrivacyQuery): Promise<PrivacyErasure> {
  const { erased, orderIds } = await deps.privacy.erase(query, async (tx, result) => {
    // The person's privacy links mailed before the erasure open nothing any more.
    await revokeLinksOf(tx, deps.keys, result.person.email);
    await recordAudit(tx, {
      teamMemberGuid: staff.teamMemberGuid,
      username: staff.username,
      action: 'erase',
      resource: PRIVACY_AUDIT_RESOURCE,
      recordId: queryHash(deps.keys, query),
      after: { asked: queried(query)[0], erased: result.erased, orders: result.orderIds.length },
    });
  });
  return { held: Object.values(erased).some((n) => n > 0), erased, orderIds };
}

/**
 * POST /api/admin/privacy/pass-lock/lift: staff lift the lock an erasure left on an activated
 * season pass (the guest at Guest Services, their identity checked), so a new photo and name
 * can go on it; audited with the lock as it was, under the keyed hash of the barcode (as a
 * privacy query by that barcode is: the log never holds a barcode). 404 when the pass is not locked.
 */
export async function liftPassLockOf(deps: Pick<PrivacyDeps, 'db' | 'keys'>, staff: StaffActor, barcode: string): Promise<PassLockLifted> {
  return deps.db.transaction(async (tx) => {
    const lock = await liftPassLock(tx, barcode);
    if (!lock) throw new AppError('NOT_FOUND', 'This pass is not locked.');
    const lifted = { barcode, reason: lock.reason, lockedAt: lock.lockedAt.toISOString(), liftedAt: new Date().toISOString() };
    await recordAudit(tx, {
      teamMemberGuid: staff.teamMemberGuid,
      username: staff.username,
      action: 'lift-pass-lock',
      resource: PRIVACY_AUDIT_RESOURCE,
      recordId: queryHash(deps.keys, { barcode }),
      before: { reason: lifted.reason, lockedAt: lifted.lockedAt },
      after: null,
    });
    return lifted;
  });
}

/** The audit entry of a guest's erasure of their own data (through their emailed link): no staff member, the same keyed hash. */
export const auditGuestErasure = (keys: Keys) => (tx: Executor, email: string, erased: Record<string, number>) =>
  recordAudit(tx, {
    teamMemberGuid: null,
    username: null,
    action: 'erase',
    resource: PRIVACY_AUDIT_RESOURCE,
    recordId: queryHash(keys, { email }),
    after: { asked: 'email', by: 'guest', erased },
  });
