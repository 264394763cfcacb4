// The pass rules as staff configured them, read whole for pass-rules.service.ts: the
// customizations by category, pack or barcode, the wallet exceptions by order, the item
// exclusions and the wristband pack ids, with the version they are at.
import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import {
  passCustomizationCategories,
  passCustomizations,
  passRulesVersion,
  walletExceptions,
  walletItemExclusions,
  wristbandMerchPackIds,
} from '@boardwalk/db/schema';

/** Which rules version a statement saw, as a column of its own row. */
export const passRulesVersionSql = sql<number>`(select ${passRulesVersion.version} from ${passRulesVersion})`;

export type PassRulesRows = Awaited<ReturnType<typeof readPassRules>>;

/**
 * Every active rule, oldest first, and the version they are at: read in the caller's
 * transaction, if any (PGlite has one connection, which the transaction holds).
 * `uncommitted`: the caller's own transaction moved the version (it wrote a rule, under a
 * savepoint or not), so what it reads may never be committed.
 */
export async function readPassRules(db: Executor) {
  const [head] = await db
    .select({
      version: passRulesVersion.version,
      uncommitted: sql<boolean>`coalesce(${passRulesVersion.writtenBy} = pg_current_xact_id_if_assigned()::text::bigint, false)`,
    })
    .from(passRulesVersion);
  const c = passCustomizationCategories;
  const customizations = await db
    .select({
      barcode: c.barcode,
      packId: c.packId,
      categoryId: c.categoryId,
      customization: {
        backgroundColor: passCustomizations.backgroundColor,
        color: passCustomizations.color,
        instructions: passCustomizations.instructions,
        googleInstructions: passCustomizations.googleInstructions,
        googleUri: passCustomizations.googleUri,
        hideBarcode: passCustomizations.hideBarcode,
      },
    })
    .from(c)
    .innerJoin(passCustomizations, eq(passCustomizations.name, c.customizationName))
    .where(eq(c.active, true))
    .orderBy(asc(c.createdAt), asc(c.guid));
  const exceptions = await db
    .select({
      orderNumber: walletExceptions.orderNumber,
      skipRegistration: sql<boolean>`bool_or(${walletExceptions.skipRegistration})`,
      skipImage: sql<boolean>`bool_or(${walletExceptions.skipImage})`,
    })
    .from(walletExceptions)
    .groupBy(walletExceptions.orderNumber);
  const x = walletItemExclusions;
  const exclusions = await db
    .select({
      merchItemId: x.merchItemId,
      merchPackId: x.merchPackId,
      validFrom: x.validFrom,
      validTo: x.validTo,
      excludeNfc: x.excludeNfc,
      customError: x.customError,
    })
    .from(x)
    .where(and(eq(x.active, true), or(isNotNull(x.merchItemId), isNotNull(x.merchPackId))))
    // A full exclusion wins over one that only drops NFC.
    .orderBy(asc(x.excludeNfc), asc(x.createdAt), asc(x.guid));
  const w = wristbandMerchPackIds;
  const wristbandPacks = await db
    .select({ merchItemId: w.merchItemId, validFrom: w.validFrom, validTo: w.validTo })
    .from(w)
    .where(eq(w.active, true));
  return { version: head?.version ?? 0, uncommitted: head?.uncommitted ?? false, customizations, exceptions, exclusions, wristbandPacks };
}
