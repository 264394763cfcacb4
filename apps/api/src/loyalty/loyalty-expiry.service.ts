// Expiring points. Each lot expires on its own date: the expiry writes one `expired` entry per
// lot for what is left of it, once (a unique index on the ledger's lot and kind makes a second
// impossible; each account is done under its row lock, so a second run finds nothing left).
// Thirty days before, the member is told once per lot (a lot's reminder is marked on the lot)
// by one email naming each amount and date. And the member cards time alone changes (a tier
// lost as earns leave the 365-day window, a lot entering the 30-day window) are published once.
import type { Executor } from '@boardwalk/db/client';
import type { Mailer } from '../integrations/email/mailer.ts';
import type { Config } from '../platform/config.ts';
import { expiringSoonUntil, lockAccount } from './loyalty.repo.ts';
import {
  findAccountsChangedByTime,
  findAccountsToRemind,
  findAccountsWithDueLots,
  findCardsCheckedUntil,
  findDueLots,
  findLotsOfAccount,
  findReminderRecipient,
  markLotsReminded,
  setCardsCheckedUntil,
} from './loyalty-lots.repo.ts';
import { appendLedger, recordTierChanges, type LoyaltyCore } from './loyalty.service.ts';
import { LOYALTY_ACCOUNT_CHANGED, LOYALTY_TIERS_CHANGED } from './loyalty.topics.ts';
import { challengeStartedOrEnded } from './loyalty-challenges.repo.ts';
import { operatingDay } from '../platform/park-time.ts';
import { linkIn, mailTexts } from '../integrations/email/mail-texts.ts';

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
  member: { email: string; firstName: string; language?: string },
  lots: { remaining: number; expiresAt: Date }[],
) {
  const t = mailTexts(member.language, config.parkTimezone);
  const sorted = [...lots].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  const total = sorted.reduce((sum, lot) => sum + lot.remaining, 0);
  const first = sorted[0]!.expiresAt;
  const lines =
    sorted.length === 1
      ? [t('expiry.one', { points: total, date: first })]
      : [t('expiry.several', { points: total }), ...sorted.map((lot) => t('expiry.lot', { points: lot.remaining, date: lot.expiresAt }))];
  return {
    to: member.email,
    subject: t('expiry.subject', { date: first }),
    text: t('expiry.text', {
      firstName: member.firstName,
      lots: lines.join('\n'),
      loyaltyUrl: linkIn(`${config.publicUrl}/loyalty/`, member.language),
      supportEmail: config.supportEmail,
      brand: config.brandName,
    }),
  };
}

/**
 * Emails each member whose lots expire within EXPIRING_SOON_DAYS of `now` (and still hold
 * points): one email per member per run naming each lot's amount and date, each lot named once
 * ever. Answers how many emails it wrote.
 */
export async function remindExpiringLots(deps: ReminderDeps, now = new Date()): Promise<number> {
  const until = expiringSoonUntil(now);
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

/** Accounts published per transaction by the pass over time. */
const CARDS_PER_PAGE = 1000;

/**
 * Publishes the accounts whose member card time alone changed, with no ledger entry or staff
 * change to do it: the tier, when earns left the 365-day window and took it down a tier; the
 * points expiring soon, when a lot still holding points entered the 30-day window. What is
 * tracked is the time boundary crossed, not what each card showed: `loyalty_card_clock` holds
 * the moment up to which the last run looked, and a run publishes the accounts whose earns or
 * lots crossed a window's edge between that moment and `now` (a page per transaction), then
 * moves it to `now`. Each edge is crossed once, so each card is published once for it, not
 * every hour. The wallet's job compares the card with what it last showed and pushes only a
 * difference, so a page published again (a run that died before moving the moment) costs
 * comparisons, never a second push; that job runs at least DELIVERY_COALESCE_SECONDS later,
 * which covers a few seconds between two processes' clocks. The first run ever knows nothing
 * of what the cards showed: it republishes every member card once (loyalty-tiers.changed).
 * A member whose tier the window's move took (or changed) is told (loyalty.tier_changed) in the
 * transaction that publishes the card; a run that died before moving its moment tells it
 * again at the next run (at least once, as the webhooks are). A challenge that started or ended
 * between the two moments republishes every card (it shows on all). Answers the accounts it published.
 */
export async function publishCardsChangedByTime(core: Pick<LoyaltyCore, 'db' | 'changes' | 'config'>, now = new Date()): Promise<string[]> {
  const from = await findCardsCheckedUntil(core.db);
  if (from === null) {
    await core.db.transaction(async (tx) => {
      await core.changes.publish(tx, LOYALTY_TIERS_CHANGED, ['the expiry job’s first pass over time']);
      await setCardsCheckedUntil(tx, now);
    });
    return [];
  }
  if (now <= from) return [];
  const published: string[] = [];
  for (let after: string | null = null; ;) {
    const page = await findAccountsChangedByTime(core.db, { from, to: now }, after, CARDS_PER_PAGE);
    if (page.length === 0) break;
    const changed = page.filter((account) => account.changed).map((account) => account.accountId);
    const tierChanges = page.flatMap((account) => (account.tierChange ? [account.tierChange] : []));
    if (changed.length > 0)
      await core.db.transaction(async (tx) => {
        await core.changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, changed);
        await recordTierChanges(tx, tierChanges);
      });
    published.push(...changed);
    after = page.at(-1)!.accountId;
  }
  // A challenge starting or ending shows on, or leaves, every member card.
  const timeZone = core.config.parkTimezone;
  if (await challengeStartedOrEnded(core.db, operatingDay(from, timeZone), operatingDay(now, timeZone)))
    await core.db.transaction((tx) =>
      core.changes.publish(tx, LOYALTY_TIERS_CHANGED, [`a challenge started or ended by ${operatingDay(now, timeZone)}`]),
    );
  await setCardsCheckedUntil(core.db, now);
  return published;
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
