// The wallet calls' refusal reasons, apart from the wallet schemas: the guest pages' first
// screen needs these names without loading Zod's schemas of the calls (e2e/bundle-size.test.ts).
/**
 * Why a wallet call was refused (an error answer's `reason`), for the guest page to word: a
 * ticket already bound to a wallet (409, params.supportEmail: the address to write to), and
 * the loyalty card's wallet token missing, expired or not for that email (401).
 */
export const WALLET_REFUSALS = {
  alreadyInWallet: 'WALLET_ALREADY_ADDED',
  linkRequired: 'LOYALTY_PASS_LINK_REQUIRED',
  linkExpired: 'LOYALTY_PASS_LINK_EXPIRED',
  linkInvalid: 'LOYALTY_PASS_LINK_INVALID',
} as const;
