// Who sees the share section (the owner of a ticket with credits, never a shared view) and the
// texts of the share calls' failures. Small on purpose: the pass view imports it to decide
// whether to load the share chunk at all.
import type { PassOrder } from '@boardwalk/contract/pass';

/** The ticket's own guest of a ticket with credits, holding a share token (never a shared view). */
export const hasShareSection = (order: PassOrder) =>
  order.credits > 0 && Boolean(order.ticketShareToken) && !order.sharedWith && !order.shareId;
