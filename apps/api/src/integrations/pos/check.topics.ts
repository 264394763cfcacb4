// The point-of-sale feed's topic. A key is a check id.

/** A check was resent as refunded. */
export const CHECK_REFUNDED = 'check.refunded';
