// Who sees the photo section. Small on purpose: the pass view imports it to decide whether to
// load the photo chunk at all (most passes have no photo: day tickets, shared views).
import { ORDER_ID_PATTERN, type PassOrder } from '@boardwalk/contract/pass';

/** The order's own guest (not a shared view, not a test pass) uploads a passholder's photo. */
export const hasPhotoSection = (order: PassOrder) =>
  order.isPassholder && !order.skipImage && ORDER_ID_PATTERN.test(order.orderId) && !order.shareId;
