// A delivery's state and target: one outbound call (an APNs push, a Google object update, a
// mail) as the API records it in the deliveries table and the back office's Deliveries tab
// shows it. Shared by both sides so that a new state is named once.

/** Where a delivery goes: Apple's push service, Google's Wallet API, or the mail server. */
export const DELIVERY_TARGETS = ['apple', 'google', 'mail'] as const;
export type DeliveryTarget = (typeof DELIVERY_TARGETS)[number];

export const DELIVERY_STATES = ['queued', 'sent', 'fetched', 'skipped', 'retrying', 'dead'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** The failed states: what the Deliveries list shows by default, and what a staff Retry takes. */
export const FAILED_DELIVERY_STATES: DeliveryState[] = ['retrying', 'dead'];
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Queued',
  sent: 'Sent',
  fetched: 'Fetched',
  skipped: 'Skipped',
  retrying: 'Retrying',
  dead: 'Dead',
};
