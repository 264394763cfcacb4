// The wallet buttons under a pass in English (apps/web/src/guest/wallet/; docs/i18n.md): Apple
// and Google Wallet, the voucher, and what shows while a pass is made or when it fails.
export default {
  /** Apple's badge: "Add to" small, "Apple Wallet" large. */
  appleSmall: 'Add to',
  appleLarge: 'Apple Wallet',
  google: 'Add to Google Wallet',
  printVoucher: 'Print Voucher',
  /** On a device with no wallet (a computer). */
  hint: 'Use a mobile device to add pass to your digital wallet',
  busy: 'Generating Pass Please wait...',
  viewPass: 'View Your Pass',
  /** No answer to a wallet or voucher call; any other failure is errors.ORDER_NOT_FOUND (or errors.alreadyInWallet). */
  networkError: 'Unable to process your request',
  /** A loyalty member's card (loyalty-wallet-actions.tsx): the link's token refused (401), expired or not the member's. */
  loyaltyLink: {
    expired: 'This pass link has expired. Claim a purchase again or ask guest services for a new link.',
    invalid: 'This pass link is not valid for that email.',
  },
} as const;
