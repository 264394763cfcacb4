// The gate system's wristband lookup: which ticket a scanned band admits.
import type { GateWristband } from '@boardwalk/contract/wristband';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import { findActiveBindingWithTicket } from './wristbands.repo.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** GET /api/integrations/wristbands/{wristbandBarcode}: 404 when the band is unknown or deactivated. */
export async function findGateWristband(opts: { db: Executor; wristbandBarcode: string }): Promise<GateWristband> {
  const row = await findActiveBindingWithTicket(opts.db, opts.wristbandBarcode);
  if (!row) throw new AppError('NOT_FOUND', 'No active wristband with this code');
  return {
    wristbandBarcode: row.wristbandBarcode,
    barcode: row.barcode,
    orderId: row.orderId,
    product: row.product,
    activatedAt: row.activatedAt.toISOString(),
    expires: iso(row.expires),
    redeemed: iso(row.redeemed),
    refunded: row.refunded,
  };
}
