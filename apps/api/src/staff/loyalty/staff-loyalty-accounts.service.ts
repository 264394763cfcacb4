// The Loyalty tab's accounts: staff holding Loyalty Manage find a member, create their
// account, see it with its balance, tier and ledger, set the contact details and the season
// pass id, and mail the pass link; Loyalty Remove Account removes the account. Every change is
// audited in its transaction.
import {
  PASS_LINK_TTL_SECONDS,
  SEARCH_LIMIT,
  type LedgerEntry,
  type SearchResult,
  type StaffAccount,
} from '@boardwalk/contract/staff-loyalty';
import { LOYALTY_PASS_PATH, LOYALTY_WALLET_TOKEN, type Birthday } from '@boardwalk/contract/loyalty';
import { AppError } from '../../platform/errors.ts';
import { deleteOutboxMessagesTo } from '../../integrations/email/outbox.repo.ts';
import {
  balanceOf,
  deleteAccount,
  findAccount,
  findAccountIdByEmail,
  findLedgerOfAccount,
  findLoyaltyMemberStanding,
  findStandingOrdersOfAccount,
  insertAccount,
  isUniqueViolation,
  lockAccount,
  searchAccounts,
  birthdayOf,
  setContact,
  setSeasonPass,
  type AccountRow,
} from '../../loyalty/loyalty.repo.ts';
import { campaignsForMember } from '../../loyalty/loyalty-campaigns.service.ts';
import { memberChallenges, staffChallenge } from '../../loyalty/loyalty-challenges.service.ts';
import { findReferred, referralLink } from '../../loyalty/loyalty-referrals.service.ts';
import { voidMemberCards } from '../../wallet/member-cards.service.ts';
import { findMemberCardWalletPresence } from '../../wallet/wallet-presence.repo.ts';
import { redactAuditRecords } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';
import { audit, LOYALTY_AUDIT_RESOURCE, notFound, PERSONAL_AUDIT_KEYS, type StaffLoyaltyDeps } from './staff-loyalty.service.ts';
import { linkIn, mailTexts } from '../../integrations/email/mail-texts.ts';

/** An account as the audit log keeps it (API field names). */
const auditRow = (a: AccountRow) => ({
  userID: a.id,
  memberNumber: a.memberNumber,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  phone: a.phone,
  zip: a.zip,
  seasonPassID: a.seasonPassId,
  // Who proved the email: 'staff' for an account staff created (the audit entry's staff member), 'guest' for its one-time code.
  emailProvenBy: a.emailProvenBy,
});

/** POST /api/admin/loyalty/verify: the user id of the account with this email; 404 when none. */
export async function staffVerify(ctx: Pick<StaffLoyaltyDeps, 'db'>, email: string): Promise<string> {
  const id = await findAccountIdByEmail(ctx.db, email);
  if (!id) throw new AppError('NOT_FOUND', 'No loyalty account uses this email');
  return id;
}

/** POST /api/admin/loyalty/create: a new account created by staff (audited); 409 when the email has one. */
export async function staffCreate(
  ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>,
  staff: StaffActor,
  request: { email: string; firstName: string; lastName: string },
) {
  return ctx.db.transaction(async (tx) => {
    const id = await insertAccount(tx, { ...request, createdBy: 'staff', createdAt: ctx.core.changes.at ?? new Date() });
    if (!id) throw new AppError('CONFLICT', 'A loyalty account already uses this email');
    const created = (await findAccount(tx, id))!;
    await audit(tx, staff, 'create', id, null, auditRow(created));
    return id;
  });
}

/** POST /api/admin/loyalty/search/: at most SEARCH_LIMIT accounts matching the term anywhere. */
export async function staffSearch(ctx: Pick<StaffLoyaltyDeps, 'db'>, term: string): Promise<SearchResult[]> {
  const rows = await searchAccounts(ctx.db, term, SEARCH_LIMIT);
  return rows.map((a) => ({
    STRACCOUNTID: a.memberNumber,
    STREMAIL: a.email,
    STRFIRSTNAME: a.firstName,
    STRLASTNAME: a.lastName,
    STRPHONEDAY: a.phone ?? '',
    STRZIP: a.zip ?? '',
    userID: a.id,
  }));
}

const toLedgerEntry = ({ entry, reference }: Awaited<ReturnType<typeof findLedgerOfAccount>>[number]): LedgerEntry => ({
  id: entry.id,
  points: entry.points,
  kind: entry.kind,
  reason: entry.reason,
  reference,
  causedBy: entry.causedBy as LedgerEntry['causedBy'],
  staffMember: entry.staffMember,
  createdAt: entry.createdAt.toISOString(),
});

/** GET /api/admin/loyalty/account/{userId}/: the account, its balance, tier and ledger. */
export async function staffAccount(ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, userId: string, now = new Date()): Promise<StaffAccount> {
  const account = await findAccount(ctx.db, userId);
  if (!account) throw notFound();
  const [standing, ledger, card, referred] = await Promise.all([
    findLoyaltyMemberStanding(ctx.db, userId, now),
    findLedgerOfAccount(ctx.db, userId),
    findMemberCardWalletPresence(ctx.db, userId),
    findReferred(ctx.db, userId),
  ]);
  if (!standing) throw notFound();
  const { member } = standing;
  const context = { timeZone: ctx.core.config.parkTimezone, now };
  const [campaigns, challenges] = await Promise.all([
    campaignsForMember(ctx.db, standing.progress.earned, context),
    memberChallenges(ctx.db, { id: userId, earnedForTier: standing.progress.earned }, context),
  ]);
  return {
    userID: account.id,
    memberNumber: account.memberNumber,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    phone: account.phone,
    zip: account.zip,
    birthday: birthdayOf(account),
    balance: member.balance,
    tier: member.tier,
    card,
    campaigns,
    challenges: challenges.map(staffChallenge),
    referral: { link: referralLink(ctx.core.config.publicUrl, account.referralCode), referred },
    ledger: ledger.map(toLedgerEntry),
  };
}

/** GET /api/admin/loyalty/pass/{userId}/: the season pass id; 404 when the account has none. */
export async function staffSeasonPass(ctx: Pick<StaffLoyaltyDeps, 'db'>, userId: string): Promise<string> {
  const account = await findAccount(ctx.db, userId);
  if (!account) throw notFound();
  if (!account.seasonPassId) throw new AppError('NOT_FOUND', 'This account has no season pass');
  return account.seasonPassId;
}

/** POST /api/admin/loyalty/pass/: one season pass per account, one account per season pass (409 otherwise). */
export async function staffAddSeasonPass(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string, seasonPassId: string): Promise<string> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const before = await lockAccount(tx, userId);
      if (!before) throw notFound();
      if (before.seasonPassId === seasonPassId) return seasonPassId;
      if (before.seasonPassId) throw new AppError('CONFLICT', 'This account already has a season pass: remove it first.');
      const after = (await setSeasonPass(tx, userId, seasonPassId))!;
      await audit(tx, staff, 'update', userId, { seasonPassID: null }, { seasonPassID: after.seasonPassId });
      return seasonPassId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This season pass ID belongs to another loyalty account.');
    throw error;
  }
}

/** DELETE /api/admin/loyalty/pass/{userId}: 404 when the account has none. */
export async function staffRemoveSeasonPass(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockAccount(tx, userId);
    if (!before) throw notFound();
    if (!before.seasonPassId) throw new AppError('NOT_FOUND', 'This account has no season pass');
    await setSeasonPass(tx, userId, null);
    await audit(tx, staff, 'update', userId, { seasonPassID: before.seasonPassId }, { seasonPassID: null });
  });
}

/** POST /api/admin/loyalty/contact/: the member's phone, zip and birthday (absent: left as it is), as staff took them down. */
export async function staffSetContact(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  userId: string,
  contact: { phone: string | null; zip: string | null; birthday?: Birthday | null | undefined },
) {
  await ctx.db.transaction(async (tx) => {
    const before = await lockAccount(tx, userId);
    if (!before) throw notFound();
    await setContact(tx, userId, contact);
    await audit(tx, staff, 'update', userId, { phone: before.phone, zip: before.zip, birthday: birthdayOf(before) }, contact);
  });
}

/**
 * DELETE /api/admin/loyalty/{id}: the member is erased. The account, its loyalty orders, ledger
 * and wallet pass are gone, and so are the mails sent to its address; earlier audit entries of
 * the account lose its personal data. The removal's own audit entry keeps who removed which
 * member number and when, with the balance and the claims it held.
 */
export async function staffRemoveAccount(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await lockAccount(tx, userId);
    if (!account) throw notFound();
    const [orders, balance] = await Promise.all([findStandingOrdersOfAccount(tx, userId), balanceOf(tx, userId)]);
    await voidMemberCards(tx, ctx.cards, userId);
    await deleteAccount(tx, userId);
    await deleteOutboxMessagesTo(tx, account.email);
    await redactAuditRecords(tx, LOYALTY_AUDIT_RESOURCE, userId, PERSONAL_AUDIT_KEYS);
    const held = orders.map(({ order, earned }) => ({ type: order.sourceType, id: order.reference, points: earned }));
    await audit(tx, staff, 'delete', userId, { memberNumber: account.memberNumber, loyaltyOrders: held, balance }, null);
  });
}

/** The member's loyalty pass link: opens the wallet buttons for their pass (the token signed for the account). */
export function passLink(ctx: Pick<StaffLoyaltyDeps, 'config' | 'keys'>, account: Pick<AccountRow, 'id' | 'email'>): string {
  const token = ctx.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, account.id, PASS_LINK_TTL_SECONDS);
  return `${ctx.config.publicUrl}${LOYALTY_PASS_PATH}#email=${encodeURIComponent(account.email)}&token=${token}`;
}

/**
 * POST /api/admin/loyalty/pass-link/: mails the member their pass link (outbox and mail job in
 * one transaction with the audit entry, which names the recipient, never the link).
 */
export async function staffMailPassLink(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string): Promise<{ sentTo: string }> {
  return ctx.db.transaction(async (tx) => {
    const account = await lockAccount(tx, userId);
    // An erased member gets no pass link: their card stays void.
    if (!account || account.erasedAt) throw notFound();
    const brand = ctx.config.brandName;
    const t = mailTexts(account.language);
    const { outboxId } = await ctx.mailer.send(tx, {
      to: account.email,
      subject: t('passLink.subject', { brand }),
      text: t('passLink.text', {
        // A name typed by whoever made the account is not mailed until the email is proven.
        greeting: account.emailProvenAt ? t('passLink.greetingNamed', { firstName: account.firstName }) : t('passLink.greeting'),
        brand,
        memberNumber: account.memberNumber,
        link: linkIn(passLink(ctx, account), account.language),
        hours: 24,
        supportEmail: ctx.config.supportEmail,
      }),
    });
    await audit(tx, staff, 'mail', userId, null, { mail: 'loyalty pass link', sentTo: account.email, outboxId, validHours: 24 });
    return { sentTo: account.email };
  });
}
