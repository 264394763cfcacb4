// Wallet passes and the voucher (guest-app.md section 7): calls are made only with order
// id and barcode (a shared guest adds the share id), or a hashUrl alone.
import { z } from 'zod';
import { barcode, hashUrl, orderId, shareId } from './pass.ts';

const byOrder = z.strictObject({
  orderId,
  barcode,
  shareId: z.union([shareId, z.literal('')]).optional(),
  hashUrl: z.literal('').optional(),
});
const byLink = z.strictObject({
  hashUrl,
  orderId: z.literal('').optional(),
  barcode: z.literal('').optional(),
  shareId: z.literal('').optional(),
});

/** POST /api/apple-wallet/ */
export const appleWalletRequest = z.union([byOrder, byLink]);
export type AppleWalletRequest = z.infer<typeof appleWalletRequest>;

/** POST /api/google-wallet/: hasPhoto asks for the holder photo on the pass. */
const hasPhoto = { hasPhoto: z.boolean().optional() };
export const googleWalletRequest = z.union([byOrder.extend(hasPhoto), byLink.extend(hasPhoto)]);
export type GoogleWalletRequest = z.infer<typeof googleWalletRequest>;

/** POST /api/voucher/: not for shared views, so order id and barcode only. */
export const voucherRequest = z.strictObject({ orderId, barcode });
export type VoucherRequest = z.infer<typeof voucherRequest>;
