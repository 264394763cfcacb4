// The Loyalty tab's exports (Loyalty Export): the members with their balance and tier now, and
// the ledger of a range of operating days, streamed as CSV (platform/csv-stream.ts). Each export
// is audited before its first row: who asked for what (the range), never the rows.
import type { Readable } from 'node:stream';
import type { CsvColumn } from '@boardwalk/contract/csv';
import type { Db } from '@boardwalk/db/client';
import { ledgerPage, membersPage, type LedgerExportRow, type MemberExportRow } from '../../loyalty/loyalty-exports.repo.ts';
import { csvStream } from '../../platform/csv-stream.ts';
import { AppError } from '../../platform/errors.ts';
import { operatingDay, operatingDayBounds } from '../../platform/park-time.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';

export interface LoyaltyExportDeps {
  db: Db;
  timeZone: string;
}

const MEMBER_COLUMNS: CsvColumn<MemberExportRow>[] = [
  { header: 'Member Number', value: (r) => r.memberNumber },
  { header: 'Email', value: (r) => r.email },
  { header: 'First Name', value: (r) => r.firstName },
  { header: 'Last Name', value: (r) => r.lastName },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'ZIP', value: (r) => r.zip },
  { header: 'Joined', value: (r) => r.createdAt },
  { header: 'Balance', value: (r) => r.balance },
  { header: 'Tier', value: (r) => r.tier },
];

const LEDGER_COLUMNS: CsvColumn<LedgerExportRow>[] = [
  { header: 'Entry', value: (r) => r.id },
  { header: 'Written', value: (r) => r.createdAt },
  { header: 'Member Number', value: (r) => r.memberNumber },
  { header: 'Kind', value: (r) => r.kind },
  { header: 'Points', value: (r) => r.points },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'Source Type', value: (r) => r.sourceType },
  { header: 'Source ID', value: (r) => r.sourceId },
  { header: 'Caused By', value: (r) => r.causedBy },
  { header: 'Staff Member', value: (r) => r.staffMember },
];

const audit = (deps: LoyaltyExportDeps, staff: StaffActor, recordId: string, after: Record<string, unknown>) =>
  recordAudit(deps.db, { ...staff, action: 'export', resource: 'loyalty', recordId, after });

/** Every member, by account id, with their balance and tier as of `now`. */
export async function exportMembers(deps: LoyaltyExportDeps, staff: StaffActor, now: Date): Promise<Readable> {
  await audit(deps, staff, 'members', { asOf: now.toISOString() });
  return csvStream(
    MEMBER_COLUMNS,
    (after: string | null, limit) => membersPage(deps.db, now, after, limit),
    (row) => row.id,
  );
}

/**
 * The ledger entries written from `from`'s operating day through `to`'s (park time, from 2:00 AM),
 * by entry id, and the range they cover: one that runs past today ends today (no entry is written
 * later); one that starts after today is a 400 naming the limit, never an empty file without a word.
 */
export async function exportLedger(
  deps: LoyaltyExportDeps,
  staff: StaffActor,
  asked: { from: string; to: string },
  now: Date,
): Promise<{ range: { from: string; to: string }; file: Readable }> {
  const today = operatingDay(now, deps.timeZone);
  if (asked.from > today) {
    const message = `From must not be after today (${today}): no entry is written yet`;
    throw new AppError('VALIDATION_FAILED', message, { fields: [{ path: 'from', message }] });
  }
  const range = { from: asked.from, to: asked.to < today ? asked.to : today };
  const span = { start: operatingDayBounds(range.from, deps.timeZone).start, end: operatingDayBounds(range.to, deps.timeZone).end };
  await audit(deps, staff, 'ledger', range);
  const file = await csvStream(
    LEDGER_COLUMNS,
    (after: number | null, limit) => ledgerPage(deps.db, span, after, limit),
    (row) => row.id,
  );
  return { range, file };
}
