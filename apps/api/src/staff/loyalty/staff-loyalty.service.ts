// The Loyalty tab: staff holding Loyalty Manage (removals have their own permissions) find a
// member, create their account, add purchases on their behalf (admin mode: any number, no
// one-hour rule), take an order back (a reversal entry; the purchase can be claimed again),
// adjust points with a reason, set the season pass id, mail the pass link and remove the
// account. The ledger stays the truth: every change of points is a new entry written by the
// loyalty core. Every change is audited in its own transaction (before and after, never a
// token).
import { randomUUID } from 'node:crypto';
import {
  ADMIN_MODE_ALLOWED_CHANGES,
  PASS_LINK_TTL_SECONDS,
  SEARCH_LIMIT,
  type LedgerEntry,
  type SearchResult,
  type StaffAccount,
  type StaffClaimResult,
  type StaffHotelClaimRequest,
  type StaffLoyaltyOrder,
  type StaffPurchaseClaimRequest,
  type StaffRedeemResult,
  type StaffRedemption,
  type StaffRedemptions,
  type StaffTicketClaimRequest,
  type StaffLot,
} from '@boardwalk/contract/staff-loyalty';
import { LOYALTY_PASS_PATH, LOYALTY_WALLET_TOKEN, type CheckCandidate, type LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { Db, Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import type { Eraser } from '../../platform/privacy.ts';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { deleteOutboxMessagesTo } from '../../integrations/email/outbox.repo.ts';
import {
  balanceOf,
  deleteAccount,
  findAccount,
  findAccountByEmail,
  findAccountIdByEmail,
  findAccountIdsOfPerson,
  findLedgerOfAccount,
  findLoyaltyMember,
  findStandingOrdersOfAccount,
  insertAccount,
  isUniqueViolation,
  lockAccount,
  lockStandingOrder,
  searchAccounts,
  setContact,
  setSeasonPass,
  type AccountRow,
} from '../../loyalty/loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets, type Claimant, type ClaimOutcome } from '../../loyalty/loyalty-claims.service.ts';
import { redeemableRewards, redeemReward, reverseRedemption, type Recorded } from '../../loyalty/loyalty-redemptions.service.ts';
import { findRedemption, listRedemptionsOfAccount } from '../../loyalty/loyalty-rewards.repo.ts';
import { listMemberLots } from '../../loyalty/loyalty-expiry.service.ts';
import { reverseClaim } from '../../loyalty/loyalty-reversals.service.ts';
import { adjustPoints, type LoyaltyCore } from '../../loyalty/loyalty.service.ts';
import { voidMemberCards, type CardVoiding } from '../../wallet/member-cards.service.ts';
import { auditRetention, redactAuditRecords, recordAudit, type AuditAction } from '../audit/audit.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';
import { findMemberCardWalletPresence, findTicketWalletPresence } from '../../wallet/wallet-presence.repo.ts';

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

const notFound = () => new AppError('NOT_FOUND', 'No loyalty account has this user id: search again.');

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

function audit(
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

const toStaffOrder = ({ order, earned }: Awaited<ReturnType<typeof findStandingOrdersOfAccount>>[number]): StaffLoyaltyOrder => ({
  id: order.reference,
  barcode: order.sourceId,
  product: order.product,
  timestamp: order.purchasedAt.toISOString(),
  type: order.sourceType as LoyaltyOrderType,
  points: earned,
  wallets: null,
});

/** POST /api/admin/loyalty/: the standing loyalty orders of the account with this email. */
export async function staffOrders(ctx: Pick<StaffLoyaltyDeps, 'db'>, email: string): Promise<StaffLoyaltyOrder[]> {
  const account = await findAccountByEmail(ctx.db, email);
  if (!account) throw new AppError('NOT_FOUND', 'No loyalty account uses this email');
  const orders = (await findStandingOrdersOfAccount(ctx.db, account.id)).map(toStaffOrder);
  const wallets = await findTicketWalletPresence(
    ctx.db,
    orders.filter((o) => o.type === 'ticket').map((o) => o.barcode),
  );
  return orders.map((o) => ({ ...o, wallets: wallets.get(o.barcode) ?? null }));
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
export async function staffAccount(ctx: Pick<StaffLoyaltyDeps, 'db'>, userId: string): Promise<StaffAccount> {
  const account = await findAccount(ctx.db, userId);
  if (!account) throw notFound();
  const [member, ledger, card] = await Promise.all([
    findLoyaltyMember(ctx.db, userId),
    findLedgerOfAccount(ctx.db, userId),
    findMemberCardWalletPresence(ctx.db, userId),
  ]);
  if (!member) throw notFound();
  return {
    userID: account.id,
    memberNumber: account.memberNumber,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    phone: account.phone,
    zip: account.zip,
    balance: member.balance,
    tier: member.tier,
    card,
    ledger: ledger.map(toLedgerEntry),
  };
}

/** GET /api/admin/loyalty/redemptions/{userId}/: the member's redemptions, what they can redeem now, and a fresh key for the form. */
export async function staffRedemptions(ctx: Pick<StaffLoyaltyDeps, 'db'>, userId: string): Promise<StaffRedemptions> {
  if (!(await findAccount(ctx.db, userId))) throw notFound();
  const [redemptions, rewards] = await Promise.all([listRedemptionsOfAccount(ctx.db, userId), redeemableRewards(ctx.db, userId)]);
  return {
    redemptions: redemptions.map((r) => ({
      redemptionId: r.id,
      rewardName: r.rewardName,
      pointsSpent: r.pointsSpent,
      redeemedAt: r.redeemedAt.toISOString(),
      reversedAt: r.reversedAt?.toISOString() ?? null,
      causedBy: r.causedBy as StaffRedemption['causedBy'],
      staffMember: r.staffMember,
    })),
    rewards,
    idempotencyKey: randomUUID(),
  };
}

/** The audit entry of a redemption or reversal that happened: the points it moved and the balance before and after. */
const auditRedemption =
  (staff: StaffActor, userId: string, action: 'redeem' | 'reverse-redemption'): Recorded =>
  (tx, redemption, balance) => {
    const points = action === 'redeem' ? -redemption.pointsSpent : redemption.pointsSpent;
    return audit(
      tx,
      staff,
      action,
      userId,
      { balance: balance - points },
      {
        balance,
        points,
        redemptionId: redemption.id,
        reward: redemption.rewardName,
      },
    );
  };

/** GET /api/admin/loyalty/lots/{userId}/: the member's lots, newest first, with what is left and when it expires. */
export async function staffLots(ctx: StaffLoyaltyDeps, userId: string): Promise<StaffLot[]> {
  if (!(await findAccount(ctx.db, userId))) throw notFound();
  return (await listMemberLots(ctx.core, userId)).map((lot) => ({
    lotId: lot.lotId,
    reason: lot.reason,
    points: lot.points,
    remaining: lot.remaining,
    earnedAt: lot.earnedAt.toISOString(),
    expiresAt: lot.expiresAt?.toISOString() ?? null,
    expiredPoints: lot.expiredPoints,
    expired: lot.expired,
  }));
}

/**
 * A staff form's key, kept apart from the tills' transaction ids (one unique column holds
 * both): a till's id can never replay a staff redemption, nor the reverse.
 */
const staffKey = (idempotencyKey: string) => `staff:${idempotencyKey}`;

/**
 * POST /api/admin/loyalty/redemptions/: the core's redemption for the member, by this staff
 * member, audited in its transaction. Once per form key: the same key again answers the same
 * redemption and spends nothing (and writes no second audit entry); the core's refusals are
 * 409s with their reason.
 */
export async function staffRedeem(
  ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>,
  staff: StaffActor,
  request: { userID: string; rewardId: string; idempotencyKey: string },
): Promise<StaffRedeemResult> {
  const account = await findAccount(ctx.db, request.userID);
  if (!account) throw notFound();
  const { result } = await redeemReward(
    ctx.core,
    { member: { memberNumber: account.memberNumber }, rewardId: request.rewardId, idempotencyKey: staffKey(request.idempotencyKey) },
    { causedBy: 'staff', staffMember: staff.username },
    auditRedemption(staff, request.userID, 'redeem'),
  );
  const stored = await findRedemption(ctx.db, result.redemptionId);
  return {
    redemptionId: result.redemptionId,
    rewardName: stored!.redemption.rewardName,
    pointsSpent: result.pointsSpent,
    balance: result.balance,
  };
}

/**
 * POST /api/admin/loyalty/redemptions/reverse/: the core's reversal of one of the member's
 * redemptions (a till's or staff's), audited when it gave points back; again, it answers the
 * same and gives nothing more.
 */
export async function staffReverseRedemption(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  request: { userID: string; redemptionId: string },
): Promise<{ pointsReturned: number; balance: number }> {
  const found = await findRedemption(ctx.db, request.redemptionId);
  if (found?.redemption.accountId !== request.userID) throw new AppError('NOT_FOUND', 'This redemption is not in the account: reload it.');
  const { pointsReturned, balance } = await reverseRedemption(
    ctx.core,
    request.redemptionId,
    { causedBy: 'staff', staffMember: staff.username },
    auditRedemption(staff, request.userID, 'reverse-redemption'),
  );
  return { pointsReturned, balance };
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

/** POST /api/admin/loyalty/contact/: the member's phone and zip, as staff took them down. */
export async function staffSetContact(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  userId: string,
  contact: { phone: string | null; zip: string | null },
) {
  await ctx.db.transaction(async (tx) => {
    const before = await lockAccount(tx, userId);
    if (!before) throw notFound();
    await setContact(tx, userId, contact);
    await audit(tx, staff, 'update', userId, { phone: before.phone, zip: before.zip }, contact);
  });
}

/**
 * DELETE /api/admin/loyalty/order/{userId}/{orderId}/{barcode}: the standing claim is marked
 * reversed and a reversal entry takes back what it earned (reason, staff member); the purchase
 * can then be claimed again.
 */
export async function staffRemoveOrder(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  userId: string,
  reference: string,
  sourceId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw notFound();
    const found = await lockStandingOrder(tx, userId, reference, sourceId);
    const reversed =
      found &&
      (await reverseClaim(
        tx,
        ctx.core.changes,
        { id: found.order.id, accountId: userId, earned: found.earned, sourceType: found.order.sourceType, sourceId },
        { reason: REMOVED_BY_STAFF, causedBy: 'staff', staffMember: staff.username },
      ));
    if (!found || !reversed) {
      throw new AppError('NOT_FOUND', 'This order is not in the account (it may have been removed already): reload the orders.');
    }
    const order = { type: found.order.sourceType, id: reference, barcode: sourceId, points: found.earned };
    await audit(tx, staff, 'remove-order', userId, order, {
      ...order,
      reversedPoints: -found.earned,
      balance: await balanceOf(tx, userId),
    });
  });
}

/** POST /api/admin/loyalty/adjust/: the core's adjustment, with the staff member's reason, audited. */
export async function staffAdjust(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string, points: number, reason: string) {
  return ctx.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw notFound();
    const { before, after } = await adjustPoints(tx, ctx.core.changes, {
      accountId: userId,
      points,
      reason,
      staffMember: staff.username,
    });
    await audit(tx, staff, 'adjust', userId, { balance: before }, { balance: after, points, reason });
    return { balance: after };
  });
}

/** What the audit log keeps of a member: personal data (email, name, phone, zip) goes with the member. */
const PERSONAL_AUDIT_KEYS = ['email', 'firstName', 'lastName', 'phone', 'zip', 'sentTo'];

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

/** Staff add a purchase on the member's behalf: the claim with a staff claimant, audited. */
async function staffClaim(
  ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>,
  staff: StaffActor,
  request: { userID: string },
  what: Record<string, unknown>,
  run: (claimant: Claimant) => Promise<ClaimOutcome | CheckCandidate[]>,
): Promise<StaffClaimResult | CheckCandidate[]> {
  const outcome = await run({ kind: 'staff', username: staff.username });
  if (Array.isArray(outcome)) return outcome;
  const { pointsEarned, balance, loyaltyOrders } = outcome;
  await audit(ctx.db, staff, 'claim', request.userID, null, {
    ...what,
    pointsEarned,
    balance,
    loyaltyOrders: loyaltyOrders.map((o) => ({ type: o.type, id: o.reference, barcode: o.sourceId, points: o.points })),
  });
  return { pointsEarned, balance, loyaltyOrders, allowedChanges: ADMIN_MODE_ALLOWED_CHANGES };
}

/** The claim names the account staff loaded by its id. */
const forAccount = <R extends { userID: string }>({ userID, ...request }: R) => ({ ...request, accountId: userID });

/** POST /api/admin/loyalty/tickets/ */
export const staffClaimTickets = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffTicketClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'ticket', orderId: request.orderId }, (by) =>
    claimTickets(ctx.core, forAccount(request), by),
  ) as Promise<StaffClaimResult>;

/** POST /api/admin/loyalty/purchase/: several checks with the number answer the candidates (nothing claimed). */
export const staffClaimPurchase = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffPurchaseClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'food-and-beverage', checkNumber: request.checkNumber, checkID: request.checkID ?? null }, (by) =>
    claimPurchase(ctx.core, forAccount(request), by),
  );

/** POST /api/admin/loyalty/hotels/ */
export const staffClaimHotel = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffHotelClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'hotel', reservationNumber: request.reservationNumber }, (by) =>
    claimHotel(ctx.core, forAccount(request), by),
  ) as Promise<StaffClaimResult>;

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
    const { outboxId } = await ctx.mailer.send(tx, {
      to: account.email,
      subject: `Your ${brand} loyalty pass`,
      text: [
        // A name typed by whoever made the account is not mailed until the email is proven.
        account.emailProvenAt ? `Hi ${account.firstName},` : 'Hello,',
        '',
        `Here is the link to your ${brand} loyalty pass (member number ${account.memberNumber}).`,
        'Open it on your phone to add the pass to Apple Wallet or Google Wallet:',
        passLink(ctx, account),
        '',
        'The link works for 24 hours and is yours alone: please do not forward it.',
        `Questions? Email ${ctx.config.supportEmail}.`,
        '',
        brand,
      ].join('\n'),
    });
    await audit(tx, staff, 'mail', userId, null, { mail: 'loyalty pass link', sentTo: account.email, outboxId, validHours: 24 });
    return { sentTo: account.email };
  });
}
