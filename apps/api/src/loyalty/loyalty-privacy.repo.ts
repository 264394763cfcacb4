// A person's loyalty data under the privacy law: what they hold (their accounts with the whole
// history, for the export of their data) and its erasure (the accounts pseudonymised, the
// ledger kept exact).
import { asc, eq, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger, loyaltyOrders, loyaltyRedemptions } from '@boardwalk/db/schema';
import { iso, isoOrNull, type Eraser, type Person } from '../platform/privacy.ts';
import { accountsOfPerson, birthdayOf } from './loyalty.repo.ts';

/** The loyalty section: the person's accounts (by email, or every one with their phone), each with its whole history. */
export async function findLoyaltyOfPerson(db: Executor, person: Person): Promise<PrivacySections['loyalty']> {
  const accounts = await db.select().from(loyaltyAccounts).where(accountsOfPerson(person));
  return Promise.all(
    accounts.map(async (account) => {
      const [ledger, claims, redemptions] = await Promise.all([
        db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, account.id)).orderBy(asc(loyaltyLedger.id)),
        db.select().from(loyaltyOrders).where(eq(loyaltyOrders.accountId, account.id)).orderBy(asc(loyaltyOrders.claimedAt)),
        db
          .select()
          .from(loyaltyRedemptions)
          .where(eq(loyaltyRedemptions.accountId, account.id))
          .orderBy(asc(loyaltyRedemptions.redeemedAt)),
      ]);
      return {
        memberNumber: account.memberNumber,
        firstName: account.firstName,
        lastName: account.lastName,
        email: account.email,
        phone: account.phone,
        zip: account.zip,
        birthday: birthdayOf(account),
        seasonPassId: account.seasonPassId,
        joinedAt: iso(account.createdAt),
        balance: ledger.reduce((sum, entry) => sum + entry.points, 0),
        ledger: ledger.map((entry) => ({ points: entry.points, kind: entry.kind, reason: entry.reason, at: iso(entry.createdAt) })),
        claims: claims.map((claim) => ({
          sourceType: claim.sourceType,
          sourceId: claim.sourceId,
          product: claim.product,
          amount: claim.amount,
          purchasedAt: iso(claim.purchasedAt),
          claimedAt: iso(claim.claimedAt),
          reversedAt: isoOrNull(claim.reversedAt),
        })),
        redemptions: redemptions.map((r) => ({
          reward: r.rewardName,
          pointsSpent: r.pointsSpent,
          redeemedAt: iso(r.redeemedAt),
          reversedAt: isoOrNull(r.reversedAt),
        })),
      };
    }),
  );
}

/**
 * Erasure: the person's accounts are pseudonymised. The email becomes one that names nobody
 * (erased-<id>@erased.invalid: unique, as the column must be, and under a reserved domain that
 * can never receive mail), the name "Erased Member"; phone, zip, birthday and season pass id are emptied;
 * the card token is replaced (the card in a wallet spends nothing).
 * The member number, claims, lots and ledger stay (the points liability stays exact); nobody
 * can find the account by the old email. erasedAt voids every link and token issued for it:
 * its statement links, wallet tokens and claim tokens open nothing, and no new card is issued.
 */
export const loyaltyAccountErasure: Eraser = {
  category: 'loyalty accounts',
  async erase(tx, person) {
    const rows = await tx
      .update(loyaltyAccounts)
      .set({
        email: sql`'erased-' || ${loyaltyAccounts.id} || '@erased.invalid'`,
        firstName: 'Erased',
        lastName: 'Member',
        phone: null,
        zip: null,
        birthMonth: null,
        birthDay: null,
        seasonPassId: null,
        // Every link and token issued for the account (statement, wallet, claim) is void from now on.
        erasedAt: sql`coalesce(${loyaltyAccounts.erasedAt}, now())`,
        cardToken: sql`replace(gen_random_uuid()::text, '-', '')`,
      })
      .where(accountsOfPerson(person))
      .returning({ id: loyaltyAccounts.id });
    return rows.length;
  },
};
