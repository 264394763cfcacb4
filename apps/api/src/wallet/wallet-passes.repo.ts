// Reads and writes of the wallet_passes row of a ticket or of a loyalty member: its stable
// serial number, the hash of what its Apple pass shows and the update tag; a removed member's
// card voided. Google Wallet's columns of the same row are written by google-wallet.repo.ts;
// the devices that have a pass are in passkit.repo.ts.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, ticketShares, tickets, walletPassIssued, walletPasses, walletWaves } from '@boardwalk/db/schema';
import { nowOr, stampedAt } from '@boardwalk/db/sql';

/**
 * The next update tag: now (or `at`, a past time: the demo's history), and always in a later
 * second than the previous one, so a device that fetched within the same second (Last-Modified
 * has whole seconds) is never answered 304.
 */
const nextUpdatedAt = (at?: Date) => sql`greatest(${nowOr(at)}, date_trunc('second', ${walletPasses.updatedAt}) + interval '1 second')`;

/** Whose pass a wallet_passes row is: a ticket's own guest's, a shared guest's (their share) or a loyalty member's. */
export type PassHolder = { barcode: string } | { shareId: string } | { loyaltyAccountId: string };
/** The unique column that names the holder, the conflict target of an upsert. */
export const holderColumn = (holder: PassHolder) =>
  'barcode' in holder ? walletPasses.barcode : 'shareId' in holder ? walletPasses.shareId : walletPasses.loyaltyAccountId;

/** The ticket a ticket pass or a shared guest's pass is of (null for a member card). */
export const passBarcode = sql<string | null>`coalesce(${walletPasses.barcode}, ${ticketShares.barcode})`;

/** The columns the wallet jobs compare of a ticket's passes (the owner's and the shared guests'). */
const ticketPassColumns = {
  barcode: sql<string>`${passBarcode}`.as('pass_barcode'),
  shareId: walletPasses.shareId,
  serialNumber: walletPasses.serialNumber,
  contentHash: walletPasses.contentHash,
  voidReason: walletPasses.voidReason,
  googleIssued: walletPasses.googleIssued,
  googleContentHash: walletPasses.googleContentHash,
  googleNotifiedAt: walletPasses.googleNotifiedAt,
  googleObjectKind: walletPasses.googleObjectKind,
  googleWalletState: walletPasses.googleWalletState,
  orderId: tickets.orderId,
};

/** Tickets' passes: each ticket's own and its shared guests', with the ticket's order id (the caller adds its where). */
export function ticketPassesQuery(db: Executor) {
  return db
    .select(ticketPassColumns)
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .innerJoin(tickets, eq(tickets.barcode, passBarcode))
    .$dynamic();
}
export type TicketPass = Awaited<ReturnType<typeof ticketPassesQuery>>[number];

/**
 * Records a generated pass: the holder's wallet_passes row (created on the first pass; the
 * update tag moves only when what the pass shows changed). Nothing else is written: every
 * download of a pass carries the same token, derived from its serial number.
 * A conflict never touches googleIssued, which Google Wallet sets on the same row. `at`: a past
 * time it is generated at (the demo's history), else now.
 */
export async function saveApplePass(db: Executor, values: { holder: PassHolder; contentHash: string; at?: Date | undefined }) {
  const { at } = values;
  const [row] = await db
    .insert(walletPasses)
    .values({ ...values.holder, contentHash: values.contentHash, ...stampedAt(at) })
    .onConflictDoUpdate({
      target: holderColumn(values.holder),
      // A ticket's pass is generated again only before any device has it; a member's card can
      // be added on another device while others have it: its stored content stays what they
      // were shown, for the account's change job to compare and push.
      set:
        'loyaltyAccountId' in values.holder
          ? { contentHash: sql`coalesce(${walletPasses.contentHash}, excluded.content_hash)` }
          : {
              contentHash: values.contentHash,
              // Added again (the ticket valid again): a pass voided before starts over.
              voidReason: null,
              updatedAt: sql`case when ${walletPasses.contentHash} is distinct from excluded.content_hash then ${nextUpdatedAt(at)} else ${walletPasses.updatedAt} end`,
            },
    })
    .returning({ serialNumber: walletPasses.serialNumber });
  if (!row) throw new Error('wallet_passes upsert returned no row');
  return row.serialNumber;
}

/** Of these barcodes, the passes an Apple pass was generated for (the owner's and shared guests'), with their order id. */
export async function findApplePasses(db: Executor, barcodes: string[]) {
  if (barcodes.length === 0) return [];
  return ticketPassesQuery(db).where(and(inArray(passBarcode, barcodes), isNotNull(walletPasses.contentHash)));
}

/** Records why the pass shows voided (null: valid). */
export async function setVoidReason(db: Executor, serialNumber: string, voidReason: string | null) {
  await db
    .update(walletPasses)
    .set({ voidReason })
    .where(and(eq(walletPasses.serialNumber, serialNumber), sql`${walletPasses.voidReason} is distinct from ${voidReason}`));
}

/** Stores what the pass now shows and moves its update tag (to `at`, a past time: the demo's history): the new tag, or null when it was already so. */
export async function updateContentHash(db: Executor, serialNumber: string, contentHash: string, at?: Date): Promise<Date | null> {
  const rows = await db
    .update(walletPasses)
    .set({ contentHash, updatedAt: nextUpdatedAt(at) })
    .where(and(eq(walletPasses.serialNumber, serialNumber), sql`${walletPasses.contentHash} is distinct from ${contentHash}`))
    .returning({ updatedAt: walletPasses.updatedAt });
  return rows[0]?.updatedAt ?? null;
}

/** The pass's update tag now (another fetch or compare may have moved it since it was read). */
export async function findUpdatedAt(db: Executor, serialNumber: string): Promise<Date | null> {
  const [row] = await db
    .select({ updatedAt: walletPasses.updatedAt })
    .from(walletPasses)
    .where(eq(walletPasses.serialNumber, serialNumber));
  return row?.updatedAt ?? null;
}

/**
 * Voids the member's card (in the removal's transaction, before the account goes): the row
 * names no holder any more and its update tag moves, so that devices fetch the voided card.
 * What Apple devices and Google were last told is forgotten (both hashes cleared): the
 * voided card is compared and delivered like any change. Null when the member has no card.
 */
export async function voidLoyaltyPass(db: Executor, loyaltyAccountId: string) {
  const [row] = await db
    .update(walletPasses)
    .set({ loyaltyAccountId: null, voidedAt: sql`now()`, contentHash: null, googleContentHash: null, updatedAt: nextUpdatedAt() })
    .where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId))
    .returning({ serialNumber: walletPasses.serialNumber });
  return row ?? null;
}

/** What the card jobs compare and update of a member card's row. */
const memberCardColumns = {
  serialNumber: walletPasses.serialNumber,
  contentHash: walletPasses.contentHash,
  googleIssued: walletPasses.googleIssued,
  googleContentHash: walletPasses.googleContentHash,
  googleNotifiedAt: walletPasses.googleNotifiedAt,
  googleWalletState: walletPasses.googleWalletState,
};

/** A voided member card by its serial number (null when not voided or unknown). */
export async function findVoidedPass(db: Executor, serialNumber: string) {
  const rows = await db
    .select(memberCardColumns)
    .from(walletPasses)
    .where(and(eq(walletPasses.serialNumber, serialNumber), isNotNull(walletPasses.voidedAt)));
  return rows[0] ?? null;
}

/** The loyalty member's pass, when one was generated (Apple) or its Google link handed out. */
export async function findLoyaltyPass(db: Executor, loyaltyAccountId: string) {
  const rows = await db.select(memberCardColumns).from(walletPasses).where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId));
  return rows[0] ?? null;
}

/** Every loyalty account with a card in a wallet (Apple generated, or a Google link handed out), in pages. */
export async function findAccountsWithCards(db: Executor, after: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ accountId: walletPasses.loyaltyAccountId })
    .from(walletPasses)
    .where(
      and(
        isNotNull(walletPasses.loyaltyAccountId),
        walletPassIssued,
        after === null ? undefined : sql`${walletPasses.loyaltyAccountId} > ${after}`,
      ),
    )
    .orderBy(walletPasses.loyaltyAccountId)
    .limit(limit);
  return rows.map((r) => r.accountId!);
}

/** Every ticket with a pass in a wallet (Apple generated, or a Google link handed out; its own or a shared guest's), in pages. */
export async function findBarcodesWithPasses(db: Executor, after: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ barcode: sql<string>`${passBarcode}` })
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .where(and(isNotNull(passBarcode), walletPassIssued, after === null ? undefined : sql`${passBarcode} > ${after}`))
    .groupBy(passBarcode)
    .orderBy(passBarcode)
    .limit(limit);
  return rows.map((r) => r.barcode);
}

/**
 * The barcodes of dated tickets visiting on `fromDay` or later whose Google object is saved,
 * past `after`, at most `limit`: the objects whose own fields (the visit day's hours) follow a
 * park-wide change.
 */
export async function findDatedBarcodesWithGoogleObjects(db: Executor, fromDay: string, after: string | null, limit: number) {
  const rows = await db
    .select({ barcode: tickets.barcode })
    .from(walletPasses)
    .innerJoin(tickets, eq(tickets.barcode, walletPasses.barcode))
    .where(
      and(
        walletPasses.googleIssued,
        sql`${tickets.visitDate} >= ${fromDay}`,
        after === null ? undefined : sql`${tickets.barcode} > ${after}`,
      ),
    )
    .orderBy(tickets.barcode)
    .limit(limit);
  return rows.map((r) => r.barcode);
}

/**
 * The pass with this serial number: a ticket's (barcode, order id; a shared guest's names
 * its share too), a member's (with the member number), or a voided member card (neither).
 */
export async function findPassBySerialNumber(db: Executor, serialNumber: string) {
  const rows = await db
    .select({
      barcode: tickets.barcode,
      orderId: tickets.orderId,
      shareId: walletPasses.shareId,
      voidReason: walletPasses.voidReason,
      loyaltyAccountId: walletPasses.loyaltyAccountId,
      memberNumber: loyaltyAccounts.memberNumber,
      serialNumber: walletPasses.serialNumber,
      updatedAt: walletPasses.updatedAt,
      voidedAt: walletPasses.voidedAt,
      contentHash: walletPasses.contentHash,
      /**
       * A park-wide wave began after the pass's update tag: what it shows may have changed
       * (park-waves.repo.ts). Compared here, in microseconds: a wave is dated a microsecond after
       * the latest tag when that is ahead of the clock, which a Date (milliseconds) loses.
       */
      changedByWave: sql<boolean>`coalesce((select max(created_at) from ${walletWaves}) > ${walletPasses.updatedAt}, false)`,
    })
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .leftJoin(tickets, eq(tickets.barcode, passBarcode))
    .leftJoin(loyaltyAccounts, eq(loyaltyAccounts.id, walletPasses.loyaltyAccountId))
    .where(eq(walletPasses.serialNumber, serialNumber))
    .limit(1);
  return rows[0] ?? null;
}
