// The printable voucher (POST /api/voucher/): the ticket reached by order id and barcode under
// the lookup throttle, refused when an exclusion applies, drawn by voucher.document.ts in the
// request's language (the page the guest printed it from: docs/i18n.md). Not for shared views:
// the request carries no share id.
import { isStoredValueCard } from '@boardwalk/contract/pass-display';
import type { Language } from '@boardwalk/contract/i18n/languages';
import type { VoucherRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Caller, TicketCore } from '../ticket/ticket.service.ts';
import { renderVoucher } from './voucher.document.ts';
import { findPhotoPng } from '../ticket/holder-photo.repo.ts';

/** What the voucher is built with, once (voucher.routes.ts). */
export interface VoucherDeps {
  db: Executor;
  tickets: TicketCore;
  config: Pick<Config, 'brandName' | 'publicUrl' | 'parkTimezone'>;
}

export interface Voucher {
  fileName: string;
  pdf: Buffer;
}

/** "Boardwalk-voucher-3500000000000028.pdf": the brand reduced to characters safe in any file name. */
export function voucherFileName(brandName: string, barcode: string): string {
  const brand = brandName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${brand ? `${brand}-` : ''}voucher-${barcode}.pdf`;
}

/** POST /api/voucher/ */
export async function createVoucher(deps: VoucherDeps, request: Caller & VoucherRequest & { language: Language }): Promise<Voucher> {
  const { tickets, config } = deps;
  const { row } = await tickets.find({ clientAddress: request.clientAddress, orderId: request.orderId, barcode: request.barcode });
  const order = tickets.toPassOrder(row);
  if (order.excluded) throw new AppError('FORBIDDEN', order.excluded);
  const photoPng = order.photoUid ? await findPhotoPng(deps.db, order.barcode) : null;
  // The QR code's link is kept (stored_value_links, unless it is already) so the page can find the card by it.
  const storedValueUrl = isStoredValueCard(order)
    ? `${config.publicUrl}/stored-value/${await tickets.issueBarcodeHash(order.barcode, row.storedValueLinked)}`
    : null;
  const pdf = await renderVoucher({
    brandName: config.brandName,
    order,
    photoPng,
    storedValueUrl,
    timeZone: config.parkTimezone,
    language: request.language,
  });
  return { fileName: voucherFileName(config.brandName, order.barcode), pdf };
}
