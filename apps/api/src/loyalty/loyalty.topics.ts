// The loyalty club's topic. A key is a loyalty account id.

/** An account's ledger or details changed: what its member card shows may have changed. */
export const LOYALTY_ACCOUNT_CHANGED = 'loyalty-account.changed';
