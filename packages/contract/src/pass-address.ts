// What a pass page's address is made of: an order id and a barcode, or a share link. Without
// Zod, so the guest pages' service worker (which maps a path to its prerendered page through
// guest-shells.ts) stays small.

export const ORDER_ID_PATTERN = /^\d{8}$/;
export const BARCODE_PATTERN = /^\d{8,18}$/;
/** A first URL segment longer than this is a hashUrl, not an order id. */
export const HASH_URL_MIN_SEGMENT = 80;
/** The order id of test passes (back office "Test Passes"). */
export const TEST_PASS_ORDER_ID = '0';
