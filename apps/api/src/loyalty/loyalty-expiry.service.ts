// Expiring points. Each lot expires on its own date: the expiry writes one `expired` entry per
// lot for what is left of it, once (a unique index on the ledger's lot and kind makes a second
// impossible; each account is done under its row lock, so a second run finds nothing left).
// Thirty days before, the member is told once per lot (a lot's reminder is marked on the lot)
// by one email naming each amount and date.
import type { Executor } from '@boardwalk/db/client';
import type { Mailer } from '../integrations/email/mailer.ts';
import type { Config } from '../platform/config.ts';
import { EXPIRING_SOON_DAYS, lockAccount } from './loyalty.repo.ts';
import {
  findAccountsToRemind,
  findAccountsWithDueLots,
  findDueLots,
  findLotsOfAccount,
  findReminderRecipient,
  markLotsReminded,
} from './loyalty-lots.repo.ts';
import { appendLedger, type LoyaltyCore } from './loyalty.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Accounts one transaction each, this many looked up at a time. */
const ACCOUNTS_PER_PAGE = 200;

const isoDate = (at: Date) => at.toISOString().slice(0, 10);

/** Expires every lot whose date has come by `now`: one entry each for its remainder. Answers how many lots it expired. */
export async function expireLots(core: Pick<LoyaltyCore, 'db' | 'changes'>, now = new Date()): Promise<number> {
  let expired = 0;
  for (;;) {
    const accounts = await findAccountsWithDueLots(core.db, now, ACCOUNTS_PER_PAGE);
    if (accounts.length === 0) return expired;
    for (const accountId of accounts) {
      expired += await core.db.transaction(async (tx) => {
        if (!(await lockAccount(tx, accountId))) return 0;
        // Read under the lock: a run that got here first left nothing.
        const due = await findDueLots(tx, accountId, now);
        await appendLedger(
          tx,
          core.changes,
          due.map((lot) => ({
            accountId,
            points: -lot.remaining,
            kind: 'expired',
            reason: `expired: points earned ${isoDate(lot.earnedAt)}`,
            lotId: lot.id,
            causedBy: 'system',
          })),
        );
        return due.length;
      });
    }
  }
}

/** What the reminders need: the database, the mailer (its durable mail job) and the words. */
export interface ReminderDeps {
  db: Executor;
  mailer: Pick<Mailer, 'send'>;
  config: Pick<Config, 'brandName' | 'supportEmail' | 'parkTimezone' | 'publicUrl'>;
}

/** The reminder's words: each lot's amount and date. */
export function reminderMail(
  config: ReminderDeps['config'],
  member: { email: string; firstName: string },
  lots: { remaining: number; expiresAt: Date }[],
) {
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: config.parkTimezone });
  const sorted = [...lots].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  const total = sorted.reduce((sum, lot) => sum + lot.remaining, 0);
  const first = date.format(sorted[0]!.expiresAt);
  return {
    to: member.email,
    subject: `Your Brownie points expire on ${first}`,
    text: [
      `Hi ${member.firstName},`,
      '',
      sorted.length === 1 ? `${total} of your Brownie points expire on ${first}.` : `${total} of your Brownie points expire soon:`,
      ...(sorted.length === 1 ? [] : sorted.map((lot) => `- ${lot.remaining} on ${date.format(lot.expiresAt)}`)),
      '',
      `Redeem them for a reward at any of our tills before then: ${config.publicUrl}/loyalty/`,
      `Questions? Email ${config.supportEmail}.`,
      '',
      config.brandName,
    ].join('\n'),
  };
}

/**
 * Emails each member whose lots expire within EXPIRING_SOON_DAYS of `now` (and still hold
 * points): one email per member per run naming each lot's amount and date, each lot named once
 * ever. Answers how many emails it wrote.
 */
export async function remindExpiringLots(deps: ReminderDeps, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS);
  let mails = 0;
  for (;;) {
    const accounts = await findAccountsToRemind(deps.db, now, until, ACCOUNTS_PER_PAGE);
    if (accounts.length === 0) return mails;
    for (const accountId of accounts) {
      mails += await deps.db.transaction(async (tx) => {
        if (!(await lockAccount(tx, accountId))) return 0;
        const lots = await markLotsReminded(tx, accountId, now, until);
        const member = await findReminderRecipient(tx, accountId);
        if (lots.length === 0 || !member) return 0;
        await deps.mailer.send(tx, reminderMail(deps.config, member, lots));
        return 1;
      });
    }
  }
}

/** A member's lot as the staff page shows it. */
export interface MemberLot {
  lotId: number;
  /** The entry that opened it: earn, adjustment (a staff raise) or redemption-reversal. */
  kind: string;
  reason: string;
  /** The points the entry gave. */
  points: number;
  /** What of them repaid a negative balance when it was opened. */
  repaid: number;
  remaining: number;
  earnedAt: Date;
  /** Null: never expires. */
  expiresAt: Date | null;
  /** The points its expiry took (0 when it has not expired or nothing was left). */
  expiredPoints: number;
  /** Its date has come (it is expired, or will be at the next run of the expiry job). */
  expired: boolean;
  remindedAt: Date | null;
}

/** A member's lots, newest first: what each earned, what is left, when it expires and whether it has. */
export async function listMemberLots(core: Pick<LoyaltyCore, 'db'>, accountId: string, now = new Date()): Promise<MemberLot[]> {
  const rows = await findLotsOfAccount(core.db, accountId);
  return rows.map(({ lot, kind, reason, expired }) => ({
    lotId: lot.id,
    kind,
    reason,
    points: lot.points,
    repaid: lot.repaid,
    remaining: lot.remaining,
    earnedAt: lot.earnedAt,
    expiresAt: lot.expiresAt,
    expiredPoints: expired,
    expired: lot.expiresAt !== null && lot.expiresAt <= now,
    remindedAt: lot.remindedAt,
  }));
}
