// The Loyalty tab's shared parts: what its use cases need (built once when the routes
// register), the account not found, and its audit entries (each change is audited in its own
// transaction, before and after, never a token), with their retention and erasure. The use
// cases are grouped by what staff do: staff-loyalty-accounts.service.ts (find, create, contact,
// season pass, pass link, removal), staff-loyalty-claims.service.ts (orders and claims on a
// member's behalf), staff-loyalty-points.service.ts (adjustments, lots, redemptions).
import type { Db, Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { Eraser } from '../../platform/privacy.ts';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { findAccountIdsOfPerson } from '../../loyalty/loyalty.repo.ts';
import type { LoyaltyCore } from '../../loyalty/loyalty.service.ts';
import type { CardVoiding } from '../../wallet/member-cards.service.ts';
import { auditRetention, redactAuditRecords, recordAudit, type AuditAction } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';

/** The audit log's resource name for every loyalty action. */
export const LOYALTY_AUDIT_RESOURCE = 'loyalty';

/** The reason of the reversal entry of an order staff removed. */
export const REMOVED_BY_STAFF = 'removed by staff';

/** What the staff loyalty use cases need, built once when the routes register. */
export interface StaffLoyaltyDeps {
  /** The loyalty core, built once when the routes register: claims, reversals and adjustments are its. */
  core: LoyaltyCore;
  db: Db;
  config: Pick<Config, 'publicUrl' | 'brandName' | 'supportEmail'>;
  keys: Keys;
  mailer: Pick<Mailer, 'send'>;
  /** A removed member's cards are voided: their devices and Google are told. */
  cards: CardVoiding;
}

export const notFound = () => new AppError('NOT_FOUND', 'No loyalty account has this user id: search again.');

/** The audit entry of a loyalty action by a staff member, in the action's transaction. */
export function audit(
  tx: Executor,
  staff: StaffActor,
  action: AuditAction,
  recordId: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) {
  return recordAudit(tx, {
    teamMemberGuid: staff.teamMemberGuid,
    username: staff.username,
    action,
    resource: LOYALTY_AUDIT_RESOURCE,
    recordId,
    before,
    after,
  });
}

/** What the audit log keeps of a member: personal data (email, name, phone, zip) goes with the member. */
export const PERSONAL_AUDIT_KEYS = ['email', 'firstName', 'lastName', 'phone', 'zip', 'birthday', 'sentTo'];

/** Retention: the loyalty audit entries lose the member's personal fields after RETENTION_AUDIT_DAYS. */
export const loyaltyAuditRetention = auditRetention(LOYALTY_AUDIT_RESOURCE, PERSONAL_AUDIT_KEYS);

/**
 * Erasure of a person: the audit entries of their loyalty accounts lose their personal fields
 * (before the accounts are pseudonymised, which finds them by the email this reads).
 */
export const loyaltyAuditErasure: Eraser = {
  category: 'audit entries',
  async erase(tx, person) {
    let redacted = 0;
    for (const id of await findAccountIdsOfPerson(tx, person)) {
      redacted += await redactAuditRecords(tx, LOYALTY_AUDIT_RESOURCE, id, PERSONAL_AUDIT_KEYS);
    }
    return redacted;
  },
};
