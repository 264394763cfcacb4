// The loyalty club's tables: accounts, loyalty orders (the claimed purchases) and the points
// ledger, and the member read model every audience reads (the wallet cards, the back office).
// The purchases themselves are read through the ticket core and the feeds' repos.
import { recordEvent } from '../platform/events.ts';
import { and, between, desc, eq, getTableColumns, inArray, isNull, lt, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Birthday, LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import { preparedPerSession } from '@boardwalk/db/prepared';
import { textsIn } from '@boardwalk/contract/i18n/staff-texts';
import { activeTiersSql, earnedSinceSql, tierProgress, tierWindowStart } from './loyalty-rewards.repo.ts';
import {
  loyaltyAccounts,
  loyaltyAccountSearchText,
  loyaltyCampaigns,
  loyaltyLedger,
  loyaltyLots,
  loyaltyOrders,
  loyaltyOrderSearchText,
  loyaltyRedemptions,
  loyaltyReferrals,
} from '@boardwalk/db/schema';
import { namesPerson, type Person } from '../platform/privacy.ts';
import { DEFAULT_LANGUAGE, type Language } from '@boardwalk/contract/i18n/languages';

export type AccountRow = typeof loyaltyAccounts.$inferSelect;

/** A unique index or constraint refused the write (a concurrent claim, a redemption key, a season pass id). */
export const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
};
export type NewLoyaltyOrder = Omit<typeof loyaltyOrders.$inferInsert, 'id' | 'claimedAt' | 'reversedAt'>;
/** A ledger entry to write; `createdAt` only for a past day written through the core (LedgerChanges.at), else the transaction's time. */
export type NewLedgerEntry = Omit<typeof loyaltyLedger.$inferInsert, 'id'>;

const byEmail = (email: string) => eq(sql`lower(${loyaltyAccounts.email})`, email.toLowerCase());

/** An account uses this email (any case): a member's, as other features' statements ask it. */
export const isMemberEmailSql = (email: AnyPgColumn | SQL): SQL =>
  sql`exists (select 1 from ${loyaltyAccounts} where lower(${loyaltyAccounts.email}) = lower(${email}))`;

export async function findAccountIdByEmail(db: Executor, email: string): Promise<string | null> {
  const [row] = await db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(byEmail(email)).limit(1);
  return row?.id ?? null;
}

/**
 * The new account's id, or null when the email already has one (any case). The operator's
 * systems are told in tx (loyalty.member_created).
 */
export async function insertAccount(
  tx: Executor,
  values: Pick<AccountRow, 'email' | 'firstName' | 'lastName' | 'createdAt'> & {
    createdBy: 'guest' | 'staff';
    /** The guest page's language; English for a member staff made (staff do not know it). */
    language?: Language;
    birthday?: Birthday | null | undefined;
  },
): Promise<string | null> {
  const { email, firstName, lastName, createdBy, language = DEFAULT_LANGUAGE, birthday, createdAt } = values;
  // Either way the email is proven: by its one-time code (guest) or by the staff member.
  const [row] = await tx
    .insert(loyaltyAccounts)
    .values({
      email,
      firstName,
      lastName,
      createdBy,
      createdAt,
      language,
      emailProvenAt: createdAt,
      emailProvenBy: createdBy,
      birthMonth: birthday?.month ?? null,
      birthDay: birthday?.day ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: loyaltyAccounts.id, memberNumber: loyaltyAccounts.memberNumber });
  if (!row) return null;
  await recordEvent(tx, 'loyalty.member_created', `member:${row.memberNumber}`, {
    memberNumber: row.memberNumber,
    firstName,
    lastName,
    email,
    createdBy,
    language,
  });
  return row.id;
}

/** The member's language, from the guest page they just used: later mails follow it. */
export async function setMemberLanguage(db: Executor, id: string, language: Language): Promise<void> {
  await db
    .update(loyaltyAccounts)
    .set({ language })
    .where(and(eq(loyaltyAccounts.id, id), ne(loyaltyAccounts.language, language)));
}

/** The account, locked until the transaction ends: one claim at a time per account. */
export async function lockAccount(tx: Executor, id: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id)).for('update');
  return row ?? null;
}

/**
 * The account locked for a claim, with how many purchases it has claimed. The count is read by
 * the statement that waits for the lock, so it may miss a claim committed while it waited:
 * the purchases' lock reads it again, exactly (claimStateColumns). FOR UPDATE, not FOR NO KEY
 * UPDATE: recording a wallet card (a row referencing the account, whose key check takes FOR
 * KEY SHARE) must wait for the claim, which publishes only an account it saw with a card.
 */
export async function lockClaimingAccount(
  tx: Executor,
  id: string,
): Promise<(AccountRow & { claims: number; referralPending: boolean }) | null> {
  const [row] = await claimingAccountLock(tx).execute({ id });
  return row ?? null;
}

const claimingAccountLock = preparedPerSession((db) =>
  db
    .select({
      ...getTableColumns(loyaltyAccounts),
      claims: claimsOf(sql.placeholder('id')),
      // A referral waiting for the member's first claim that earns points (loyalty-referrals.service.ts).
      referralPending: sql<boolean>`exists (select 1 from ${loyaltyReferrals} r where r.referred_id = ${sql.placeholder('id')}::uuid and r.earned_at is null)`,
    })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.id, sql.placeholder('id')))
    .for('update')
    .prepare('lock_claiming_account'),
);

const claimsOf = (accountId: string | Placeholder) =>
  sql<number>`(select count(*)::int from ${loyaltyOrders} where ${loyaltyOrders.accountId} = ${accountId})`;

/**
 * What a claim checks, as columns of the statement that locks its purchases (one round trip
 * less than a statement of its own), given the purchase's id column. That statement runs after
 * the account's lock, so its snapshot holds every claim the account committed before: `claims`,
 * how many purchases the account has claimed, is exact. `claimedBy`: the account holding a
 * standing claim (not reversed) of the purchase; a claim of it committed while the statement
 * waited for a purchase's lock is not seen, and the unique index of standing claims refuses
 * this claim then.
 */
export const claimStateColumns = (accountId: string | Placeholder, sourceType: LoyaltyOrderType) => (sourceId: AnyPgColumn) => {
  const o = loyaltyOrders;
  return {
    claims: claimsOf(accountId),
    claimedBy: sql<string | null>`(select ${o.accountId} from ${o}
      where ${o.sourceType} = ${sourceType} and ${o.sourceId} = ${sourceId} and ${o.reversedAt} is null)`,
  };
};

/** Which of these purchases are claimed now (a standing claim: not reversed), and by which account. */
export async function findStandingClaims(tx: Executor, sourceType: LoyaltyOrderType, sourceIds: string[]) {
  if (sourceIds.length === 0) return [];
  return tx
    .select({ sourceId: loyaltyOrders.sourceId, accountId: loyaltyOrders.accountId })
    .from(loyaltyOrders)
    .where(and(eq(loyaltyOrders.sourceType, sourceType), inArray(loyaltyOrders.sourceId, sourceIds), isNull(loyaltyOrders.reversedAt)));
}

/**
 * The loyalty.points_changed events of the ledger entries a relation names (id, account_id,
 * points, kind, reason, created_at, system and the balance each left), as rows (type, subject,
 * data, system) for integration_events;
 * their members' numbers from `members` (a relation of id and member_number: the accounts, or
 * a statement's own rows of them).
 */
export const pointsChangedEvents = (entries: SQL, members: SQL | typeof loyaltyAccounts = loyaltyAccounts) => sql`
  select 'loyalty.points_changed', 'member:' || a.member_number,
    jsonb_build_object(
      'memberNumber', a.member_number,
      'entry', jsonb_build_object('id', e.id::text, 'points', e.points, 'kind', e.kind, 'reason', e.reason, 'at', e.created_at),
      'balance', e.balance),
    e.system
  from ${entries} e join ${members} a on a.id = e.account_id`;

/**
 * The ledger's sum as a number: summed as bigint (a balance past 2^31 is no error) and read
 * as text, exact up to 2^53, which no ledger of 32-bit entries reaches in practice; past it,
 * the nearest safe integer.
 */
export function balanceFromSum(sum: string): number {
  const n = BigInt(sum);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(n > max ? max : n < -max ? -max : n);
}

/** The balance: the sum of the ledger rows in the query (the ledger is the truth; nothing keeps a balance). */
const ledgerSum = () => sql<number>`coalesce(sum(${loyaltyLedger.points}), 0)::bigint::text`.mapWith(balanceFromSum);

/** An account's balance: the sum of its ledger. */
export async function balanceOf(db: Executor, accountId: string): Promise<number> {
  const [row] = await db.select({ points: ledgerSum() }).from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId));
  return row?.points ?? 0;
}

/** The account's balance as a subquery (the sum of its ledger, as text: balanceFromSum reads it), by the (account, id) index. */
const balanceSql = (of: typeof loyaltyAccounts.id) =>
  sql`(select coalesce(sum(${loyaltyLedger.points}), 0)::bigint::text from ${loyaltyLedger} where ${loyaltyLedger.accountId} = ${of})`;

/** Points expire soon when their lot's date is this many days away or less. */
export const EXPIRING_SOON_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The end of the expiring-soon window at this moment: lots whose date is at or before it expire soon. */
export const expiringSoonUntil = (now: Date) => new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS);

/**
 * The account's lots that still hold points and expire within EXPIRING_SOON_DAYS of `now` (or
 * are due and not yet expired by the job). The moment is the caller's, like the tier's, so the
 * card, the tills and the expiry job's pass over time see one clock.
 */
const expiringSoon = (of: typeof loyaltyAccounts.id, now: Date) =>
  sql`from ${loyaltyLots} where ${loyaltyLots.accountId} = ${of} and ${loyaltyLots.remaining} > 0
      and ${loyaltyLots.expiresAt} <= ${expiringSoonUntil(now).toISOString()}::timestamptz`;

/**
 * The member read model, in one query: who the member is, their balance, the points they earned
 * in the tier window with the active tiers (from which their tier now: the highest active tier
 * those points reach; null when none), and the points expiring within 30 days with the earliest
 * of those dates (0 and null when none); null when the account does not exist. The points earned
 * are counted once, for the tier and for the progress to the next one.
 */
export async function findLoyaltyMemberStanding(db: Executor, accountId: string, now = new Date()) {
  const [row] = await db
    .select({
      id: loyaltyAccounts.id,
      email: loyaltyAccounts.email,
      firstName: loyaltyAccounts.firstName,
      lastName: loyaltyAccounts.lastName,
      memberNumber: loyaltyAccounts.memberNumber,
      /** What the member's referral link carries. */
      referralCode: loyaltyAccounts.referralCode,
      /** The member's language: their card's texts are written in it. */
      language: loyaltyAccounts.language,
      emailProvenAt: loyaltyAccounts.emailProvenAt,
      erasedAt: loyaltyAccounts.erasedAt,
      /** The member card's barcode (a secret: only the card shows it). */
      cardToken: loyaltyAccounts.cardToken,
      balance: sql`${balanceSql(loyaltyAccounts.id)}`.mapWith(balanceFromSum),
      earned: sql`${earnedSinceSql(loyaltyAccounts.id, tierWindowStart(now))}::text`.mapWith(balanceFromSum),
      tiers: activeTiersSql(),
      expiringPoints:
        sql<number>`(select coalesce(sum(${loyaltyLots.remaining}), 0)::int ${expiringSoon(loyaltyAccounts.id, now)})`.mapWith(Number),
      expiringAt: sql<Date | null>`(select min(${loyaltyLots.expiresAt}) ${expiringSoon(loyaltyAccounts.id, now)})`.mapWith(
        (v: string | Date | null) => (v === null ? null : new Date(v)),
      ),
    })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.id, accountId));
  if (!row) return null;
  const { earned, tiers, ...member } = row;
  const progress = tierProgress(earned, tiers);
  // The tier's name is its key (tills, staff, events); guests read it in their language (tierNames).
  const tier = progress.tier;
  return { member: { ...member, tier: tier?.name ?? null, tierNames: tier ? textsIn(tier, 'name') : null }, progress };
}

/** The member read model (see findLoyaltyMemberStanding): what the wallet cards, the tills and staff read. */
export async function findLoyaltyMember(db: Executor, accountId: string, now = new Date()) {
  return (await findLoyaltyMemberStanding(db, accountId, now))?.member ?? null;
}

export type LoyaltyMember = NonNullable<Awaited<ReturnType<typeof findLoyaltyMember>>>;

/** The standing claims of one purchase with the points each earned, locked until the transaction ends. */
export function lockStandingClaimsOfSource(tx: Executor, sourceType: LoyaltyOrderType, sourceId: string) {
  return tx
    .select({ id: loyaltyOrders.id, accountId: loyaltyOrders.accountId, earned: loyaltyLedger.points })
    .from(loyaltyOrders)
    .innerJoin(loyaltyLedger, and(eq(loyaltyLedger.loyaltyOrderId, loyaltyOrders.id), eq(loyaltyLedger.kind, 'earn')))
    .where(and(eq(loyaltyOrders.sourceType, sourceType), eq(loyaltyOrders.sourceId, sourceId), isNull(loyaltyOrders.reversedAt)))
    .for('update', { of: loyaltyOrders });
}

/** Marks a claim reversed; false when it already was (so its reversal is written once). */
export async function markReversed(tx: Executor, loyaltyOrderId: string): Promise<boolean> {
  const rows = await tx
    .update(loyaltyOrders)
    .set({ reversedAt: sql`now()` })
    .where(and(eq(loyaltyOrders.id, loyaltyOrderId), isNull(loyaltyOrders.reversedAt)))
    .returning({ id: loyaltyOrders.id });
  return rows.length > 0;
}

// ---- The back office's Loyalty tab ----------------------------------------------------

export async function findAccount(db: Executor, id: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
  return row ?? null;
}

export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(loyaltyAccounts).where(byEmail(email)).limit(1);
  return row ?? null;
}

/** LIKE's own characters in a search term match themselves. */
const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The Account / Order Lookup, at most `limit` accounts by email. A term that is a whole email,
 * member number, order id, barcode, check or reservation number answers its accounts (b-tree
 * indexes); otherwise, the accounts whose email, name, phone, zip or member number, or one of
 * whose loyalty orders' reference or source id, contains the term, any case (trigram indexes:
 * a long term's common trigrams, such as those of example.com, are slow there).
 */
export async function searchAccounts(db: Executor, term: string, limit: number): Promise<AccountRow[]> {
  const exact = term.toLowerCase();
  const pattern = likePattern(term);
  // One statement: the substring half runs only when the exact half found nothing (a one-time filter).
  const matched = sql`
    with exact as (
      (select ${loyaltyAccounts.id} as id from ${loyaltyAccounts}
        where ${byEmail(exact)} or ${loyaltyAccounts.memberNumber} = ${exact})
      union
      (select ${loyaltyOrders.accountId} from ${loyaltyOrders}
        where lower(${loyaltyOrders.reference}) = ${exact} or lower(${loyaltyOrders.sourceId}) = ${exact} limit ${limit})
    ), contains as (
      (select ${loyaltyAccounts.id} as id from ${loyaltyAccounts}
        where not exists (select 1 from exact) and ${loyaltyAccountSearchText(loyaltyAccounts)} like ${pattern} limit ${limit})
      union
      (select ${loyaltyOrders.accountId} from ${loyaltyOrders}
        where not exists (select 1 from exact) and ${loyaltyOrderSearchText(loyaltyOrders)} like ${pattern} limit ${limit})
    )
    select id from exact union select id from contains`;
  return db
    .select()
    .from(loyaltyAccounts)
    .where(sql`${loyaltyAccounts.id} in (${matched})`)
    .orderBy(loyaltyAccounts.email)
    .limit(limit);
}

/** The account's standing claims (not reversed) that meet `also`, with the points each earned. */
const standingOrders = (db: Executor, accountId: string, ...also: SQL[]) =>
  db
    .select({ order: loyaltyOrders, earned: loyaltyLedger.points })
    .from(loyaltyOrders)
    .innerJoin(loyaltyLedger, and(eq(loyaltyLedger.loyaltyOrderId, loyaltyOrders.id), eq(loyaltyLedger.kind, 'earn')))
    .where(and(eq(loyaltyOrders.accountId, accountId), ...also, isNull(loyaltyOrders.reversedAt)));

/** An account's standing claims (not reversed) with the points each earned, newest purchase first. */
export function findStandingOrdersOfAccount(db: Executor, accountId: string) {
  return standingOrders(db, accountId).orderBy(desc(loyaltyOrders.purchasedAt), loyaltyOrders.sourceId);
}

/** One standing claim of the account by its reference and source id, locked, with the points it earned. */
export async function lockStandingOrder(tx: Executor, accountId: string, reference: string, sourceId: string) {
  const claim = [eq(loyaltyOrders.reference, reference), eq(loyaltyOrders.sourceId, sourceId)];
  const [row] = await standingOrders(tx, accountId, ...claim).for('update', { of: loyaltyOrders });
  return row ?? null;
}

/** An account's ledger, newest first, with the reference of the purchase each entry is about. */
export function findLedgerOfAccount(db: Executor, accountId: string) {
  return db
    .select({ entry: loyaltyLedger, reference: loyaltyOrders.reference })
    .from(loyaltyLedger)
    .leftJoin(loyaltyOrders, eq(loyaltyOrders.id, loyaltyLedger.loyaltyOrderId))
    .where(eq(loyaltyLedger.accountId, accountId))
    .orderBy(desc(loyaltyLedger.id));
}

/**
 * One page of an account's ledger, newest first: at most `limit` entries older than the entry
 * `before` (all when null), with the purchase each claim entry is about. It reads one more
 * entry than asked, to tell whether older ones remain.
 */
export async function findLedgerPage(db: Executor, accountId: string, page: { before: number | null; limit: number }) {
  const rows = await db
    .select({
      id: loyaltyLedger.id,
      createdAt: loyaltyLedger.createdAt,
      points: loyaltyLedger.points,
      kind: loyaltyLedger.kind,
      reason: loyaltyLedger.reason,
      causedBy: loyaltyLedger.causedBy,
      purchase: { type: loyaltyOrders.sourceType, product: loyaltyOrders.product, reference: loyaltyOrders.reference },
      reward: loyaltyRedemptions.rewardName,
      earnedAt: loyaltyLots.earnedAt,
      campaign: { name: loyaltyCampaigns.name, nameEs: loyaltyCampaigns.nameEs },
    })
    .from(loyaltyLedger)
    .leftJoin(loyaltyOrders, eq(loyaltyOrders.id, loyaltyLedger.loyaltyOrderId))
    .leftJoin(loyaltyRedemptions, eq(loyaltyRedemptions.id, loyaltyLedger.redemptionId))
    .leftJoin(loyaltyLots, eq(loyaltyLots.id, loyaltyLedger.lotId))
    .leftJoin(loyaltyCampaigns, eq(loyaltyCampaigns.id, loyaltyLedger.campaignId))
    // The page is read in the (account, id) index's order, `limit` entries whatever the ledger's size.
    // The account is a range of one, not an equality: with an equality the planner drops the account
    // from the order and may walk the primary key backwards instead, through every newer entry of the
    // whole ledger (for a member quiet for a while, nearly all of it).
    .where(
      and(between(loyaltyLedger.accountId, accountId, accountId), page.before === null ? undefined : lt(loyaltyLedger.id, page.before)),
    )
    .orderBy(desc(loyaltyLedger.accountId), desc(loyaltyLedger.id))
    .limit(page.limit + 1);
  return { entries: rows.slice(0, page.limit), more: rows.length > page.limit };
}

/** Sets or clears the season pass id; the unique constraint refuses one another account holds (23505). */
export async function setSeasonPass(tx: Executor, accountId: string, seasonPassId: string | null): Promise<AccountRow | null> {
  const [row] = await tx.update(loyaltyAccounts).set({ seasonPassId }).where(eq(loyaltyAccounts.id, accountId)).returning();
  return row ?? null;
}

export async function setContact(
  tx: Executor,
  accountId: string,
  { phone, zip, birthday }: { phone: string | null; zip: string | null; birthday?: Birthday | null | undefined },
) {
  const born = birthday === undefined ? {} : { birthMonth: birthday?.month ?? null, birthDay: birthday?.day ?? null };
  const [row] = await tx
    .update(loyaltyAccounts)
    .set({ phone, zip, ...born })
    .where(eq(loyaltyAccounts.id, accountId))
    .returning();
  return row ?? null;
}

/** An account's birthday as the API shows it; null when none was given. */
export const birthdayOf = (account: Pick<AccountRow, 'birthMonth' | 'birthDay'>): Birthday | null =>
  account.birthMonth === null || account.birthDay === null ? null : { month: account.birthMonth, day: account.birthDay };

/**
 * Removes the account with its loyalty orders and ledger (the foreign keys cascade) and its
 * wallet pass: no personal data stays in the loyalty tables. False when it did not exist.
 */
export async function deleteAccount(tx: Executor, accountId: string): Promise<boolean> {
  const rows = await tx.delete(loyaltyAccounts).where(eq(loyaltyAccounts.id, accountId)).returning({ id: loyaltyAccounts.id });
  return rows.length > 0;
}

/** The person's accounts: by email, or every one with their phone. */
export const accountsOfPerson = (person: Person) => namesPerson(person, { email: loyaltyAccounts.email, phone: loyaltyAccounts.phone });

/** The ids of the person's loyalty accounts (by email, or every one with their phone). */
export async function findAccountIdsOfPerson(db: Executor, person: Person): Promise<string[]> {
  const rows = await db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(accountsOfPerson(person));
  return rows.map((row) => row.id);
}
