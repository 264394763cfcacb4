// Wallet passes and the voucher: calls are made only with order id and barcode (a shared guest
// adds the share id), or a hashUrl alone; the loyalty variant with the member's email and a
// wallet token.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { loyaltyEmail } from './loyalty.ts';
import { barcode, hashUrl, orderId, shareId } from './pass.ts';

export { WALLET_REFUSALS } from './wallet-refusals.ts';

const byOrder = z.strictObject({
  orderId,
  barcode,
  shareId: z.optional(z.union([shareId, z.literal('')])),
  hashUrl: z.optional(z.literal('')),
});
const byLink = z.strictObject({
  hashUrl,
  orderId: z.optional(z.literal('')),
  barcode: z.optional(z.literal('')),
  shareId: z.optional(z.literal('')),
});

/**
 * The loyalty variant: the member's card. The email alone is refused (a membership is no
 * secret): the wallet token of a claim, or of a staff member's emailed link, names the account.
 */
const byLoyalty = z.strictObject({
  email: loyaltyEmail,
  walletToken: describe(
    z.optional(z.string().check(z.maxLength(2000))),
    'The walletToken of a successful claim, or of the pass link staff emailed',
  ),
});
export type LoyaltyWalletRequest = z.infer<typeof byLoyalty>;
export const isLoyaltyWalletRequest = (body: object): body is LoyaltyWalletRequest => 'email' in body;

/** POST /api/apple-wallet/ */
export const appleWalletRequest = z.union([byOrder, byLink, byLoyalty]);
export type AppleWalletRequest = z.infer<typeof appleWalletRequest>;
/** A ticket's pass: by order id and barcode, or by a share link. */
export type TicketWalletRequest = Exclude<AppleWalletRequest, LoyaltyWalletRequest>;

/** POST /api/google-wallet/: hasPhoto asks for the holder photo on the pass. */
const hasPhoto = { hasPhoto: z.optional(z.boolean()) };
export const googleWalletRequest = z.union([z.extend(byOrder, hasPhoto), z.extend(byLink, hasPhoto), byLoyalty]);
export type GoogleWalletRequest = z.infer<typeof googleWalletRequest>;
export type GoogleTicketWalletRequest = Exclude<GoogleWalletRequest, LoyaltyWalletRequest>;

/** POST /api/voucher/: not for shared views, so order id and barcode only. */
export const voucherRequest = z.strictObject({ orderId, barcode });
export type VoucherRequest = z.infer<typeof voucherRequest>;
