// The pass rules as staff configured them, read whole for pass-rules.service.ts: the
// customizations by category, pack or barcode, the wallet exceptions by order, the item
// exclusions and the wristband pack ids, with the version they are at.
import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { pickColumns } from '@boardwalk/db/sql';
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
  const p = passCustomizations;
  const customizations = await db
    .select({
      ...pickColumns(c, 'barcode', 'packId', 'categoryId'),
      customization: pickColumns(
        p,
        'backgroundColor',
        'color',
        'instructions',
        'instructionsEs',
        'googleInstructions',
        'googleInstructionsEs',
        'googleUri',
        'hideBarcode',
      ),
    })
    .from(c)
    .innerJoin(p, eq(p.name, c.customizationName))
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
    .select(pickColumns(x, 'merchItemId', 'merchPackId', 'validFrom', 'validTo', 'excludeNfc', 'customError', 'customErrorEs'))
    .from(x)
    .where(and(eq(x.active, true), or(isNotNull(x.merchItemId), isNotNull(x.merchPackId))))
    // A full exclusion wins over one that only drops NFC.
    .orderBy(asc(x.excludeNfc), asc(x.createdAt), asc(x.guid));
  const w = wristbandMerchPackIds;
  const wristbandPacks = await db
    .select(pickColumns(w, 'merchItemId', 'validFrom', 'validTo'))
    .from(w)
    .where(eq(w.active, true));
  return { version: head?.version ?? 0, uncommitted: head?.uncommitted ?? false, customizations, exceptions, exclusions, wristbandPacks };
}
