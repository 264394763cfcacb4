// The privacy links spent by an erasure: an emailed link deletes once. A link is a signed token
// (no row while it is valid); the row of a spent one keeps its random id until the token has
// expired anyway, and names nobody.
import { eq, lt } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { spentPrivacyLinks } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

export async function isLinkSpent(db: Executor, linkId: string): Promise<boolean> {
  const rows = await db.select({ linkId: spentPrivacyLinks.linkId }).from(spentPrivacyLinks).where(eq(spentPrivacyLinks.linkId, linkId));
  return rows.length > 0;
}

/** Marks the link spent; false when it already was (a second erasure with it, at the same moment). */
export async function spendLink(tx: Executor, linkId: string, expiresAt: Date): Promise<boolean> {
  const rows = await tx.insert(spentPrivacyLinks).values({ linkId, expiresAt }).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** Retention: a spent link's row goes a day after its token would have expired (it could no longer be used anyway). */
export const spentLinkRetention = deleteRule(
  'spent privacy links',
  () => 1,
  spentPrivacyLinks,
  (cutoff) => lt(spentPrivacyLinks.expiresAt, cutoff),
);
