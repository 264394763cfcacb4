// Who may see the passholder sections. Small on purpose: the pass view imports it to decide
// whether to load their chunk at all (day tickets and shared views never do).
import { ORDER_ID_PATTERN, type PassOrder } from '@boardwalk/contract/pass';

/** A passholder's own guest (not a shared view, not a test pass). */
export const isOwnPassholder = (order: PassOrder) => order.isPassholder && ORDER_ID_PATTERN.test(order.orderId) && !order.shareId;
