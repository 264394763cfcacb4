// A member's email proven: by its one-time code when the guest joins or signs in (the code
// itself is the guest feature's, loyalty-email-codes.repo.ts), by the staff member who made the
// account. The first proof is kept.
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts } from '@boardwalk/db/schema';

/** The guest proved the account's email (its one-time code): kept the first time. */
export async function markEmailProven(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .update(loyaltyAccounts)
    .set({ emailProvenAt: at, emailProvenBy: 'guest' })
    .where(and(eq(loyaltyAccounts.id, id), isNull(loyaltyAccounts.emailProvenAt)));
}
