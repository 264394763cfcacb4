// Whether passes are in a wallet, for staff: the devices registered for a pass's Apple Wallet
// updates, and its Google object's state as Google's save and delete callbacks last said.
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { WalletPresence } from '@boardwalk/contract/staff-loyalty';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, loyaltyAccounts, ticketShares, walletPasses } from '@boardwalk/db/schema';
import { isoOrNull, namesPerson, ownBarcodes, type Person } from '../platform/privacy.ts';
import { passBarcode } from './wallet-passes.repo.ts';

const NOWHERE: WalletPresence = { appleDevices: 0, google: 'unknown' };

// Drizzle names a selected column without its table; inside the subquery it must name wallet_passes'.
const passSerialNumber = sql`${sql.identifier('wallet_passes')}.${sql.identifier('serial_number')}`;
const presenceColumns = {
  appleDevices: sql<number>`(select count(*)::int from ${appleDeviceRegistrations} where ${appleDeviceRegistrations.serialNumber} = ${passSerialNumber})`,
  googleWalletState: walletPasses.googleWalletState,
};

/** Several passes as one: their devices added up; Google saved when any object is, deleted when all heard of are. */
function combine(rows: { appleDevices: number; googleWalletState: string | null }[]): WalletPresence {
  const states = new Set(rows.map((r) => r.googleWalletState));
  return {
    appleDevices: rows.reduce((sum, r) => sum + Number(r.appleDevices), 0),
    google: states.has('saved') ? 'saved' : states.has('deleted') ? 'deleted' : 'unknown',
  };
}

/** Each ticket's passes (its own guest's and its shared guests') in the wallets, by barcode. */
export async function findTicketWalletPresence(db: Executor, barcodes: string[]): Promise<Map<string, WalletPresence>> {
  if (barcodes.length === 0) return new Map();
  const rows = await db
    .select({ barcode: sql<string>`${passBarcode}`, ...presenceColumns })
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .where(inArray(passBarcode, barcodes));
  return new Map(barcodes.map((barcode) => [barcode, combine(rows.filter((r) => r.barcode === barcode))]));
}

/** The member card in the wallets (nowhere when none was made). */
export async function findMemberCardWalletPresence(db: Executor, loyaltyAccountId: string): Promise<WalletPresence> {
  const rows = await db.select(presenceColumns).from(walletPasses).where(eq(walletPasses.loyaltyAccountId, loyaltyAccountId));
  return rows.length > 0 ? combine(rows) : NOWHERE;
}

const registered = (pick: 'min' | 'max') =>
  sql<Date | null>`(select ${sql.raw(pick)}(${appleDeviceRegistrations.createdAt}) from ${appleDeviceRegistrations} where ${appleDeviceRegistrations.serialNumber} = ${passSerialNumber})`.mapWith(
    (value: string | Date | null) => (value === null ? null : new Date(value)),
  );

/**
 * The wallet section: the passes of the person's own tickets, of the shares made to them and
 * their member cards, with how many Apple devices hold each and since when, and the Google
 * object's state; never a device's identifier or push token.
 */
export async function findWalletOfPerson(db: Executor, person: Person): Promise<PrivacySections['wallet']> {
  const barcodes = ownBarcodes(person);
  const sharesToThem = db
    .select({ id: ticketShares.shareId })
    .from(ticketShares)
    .where(namesPerson(person, { email: ticketShares.email, phone: ticketShares.phone }));
  const theirAccounts = db
    .select({ id: loyaltyAccounts.id })
    .from(loyaltyAccounts)
    .where(namesPerson(person, { email: loyaltyAccounts.email, phone: loyaltyAccounts.phone }));
  const rows = await db
    .select({
      barcode: sql<string | null>`${passBarcode}`,
      shareId: walletPasses.shareId,
      memberCard: walletPasses.loyaltyAccountId,
      ...presenceColumns,
      firstAddedAt: registered('min'),
      lastAddedAt: registered('max'),
      googleWalletStateAt: walletPasses.googleWalletStateAt,
    })
    .from(walletPasses)
    .leftJoin(ticketShares, eq(ticketShares.shareId, walletPasses.shareId))
    .where(
      or(
        barcodes.length > 0 ? inArray(walletPasses.barcode, barcodes) : undefined,
        inArray(walletPasses.shareId, sharesToThem),
        inArray(walletPasses.loyaltyAccountId, theirAccounts),
      ),
    );
  return rows.map((row) => ({
    pass: row.memberCard ? ('member' as const) : row.shareId ? ('share' as const) : ('ticket' as const),
    barcode: row.barcode,
    appleDevices: Number(row.appleDevices),
    firstAddedAt: isoOrNull(row.firstAddedAt),
    lastAddedAt: isoOrNull(row.lastAddedAt),
    googleState: row.googleWalletState,
    googleStateAt: isoOrNull(row.googleWalletStateAt),
  }));
}
