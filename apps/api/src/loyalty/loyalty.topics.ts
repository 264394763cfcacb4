// The loyalty club's topics.

/** An account's ledger or details changed (the key: its account id): what its member card shows may have changed. */
export const LOYALTY_ACCOUNT_CHANGED = 'loyalty-account.changed';

/** A claim counted toward a running challenge (the key: the account id): the challenges queue settles the member's. */
export const LOYALTY_CHALLENGE_ACTIVITY = 'loyalty-challenge.activity';

/** The tiers changed (the key: what the staff edit did): every member's tier, and so their card, may have changed. */
export const LOYALTY_TIERS_CHANGED = 'loyalty-tiers.changed';
