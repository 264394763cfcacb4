// The privacy links spent by an erasure: an emailed link deletes once. A link is a signed token
// (no row while it is valid); the row of a spent one keeps its random id until the token has
// expired anyway, and names nobody.
import { eq, lt } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { revokedPrivacyLinks, spentPrivacyLinks } from '@boardwalk/db/schema';
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

/**
 * An erasure revokes every privacy link issued for the email before it (a keyed hash of the
 * email: the row names nobody), until they would have expired anyway (`expiresAt`).
 */
export async function revokePrivacyLinks(tx: Executor, emailHash: string, revokedAt: Date, expiresAt: Date): Promise<void> {
  await tx
    .insert(revokedPrivacyLinks)
    .values({ emailHash, revokedAt, expiresAt })
    .onConflictDoUpdate({ target: revokedPrivacyLinks.emailHash, set: { revokedAt, expiresAt } });
}

/** When the email's links were last revoked, or null. */
export async function privacyLinksRevokedAt(db: Executor, emailHash: string): Promise<Date | null> {
  const [row] = await db
    .select({ revokedAt: revokedPrivacyLinks.revokedAt })
    .from(revokedPrivacyLinks)
    .where(eq(revokedPrivacyLinks.emailHash, emailHash));
  return row?.revokedAt ?? null;
}

/** Retention: a revocation goes a day after every link it revoked would have expired. */
export const revokedLinkRetention = deleteRule(
  'revoked privacy links',
  () => 1,
  revokedPrivacyLinks,
  (cutoff) => lt(revokedPrivacyLinks.expiresAt, cutoff),
);
