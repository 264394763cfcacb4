// How the Webhooks tab writes times, an endpoint's state and its last day.
import type { WebhookEndpoint, WebhookMessageState } from '@boardwalk/contract/webhooks';

const when = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A time as "Nov 27, 4:05 AM", or a dash when there is none. */
export const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : '–');

export const STATE_BADGES: Record<WebhookMessageState, { bg: string; text?: 'dark' }> = {
  waiting: { bg: 'secondary' },
  pending: { bg: 'secondary' },
  retrying: { bg: 'warning', text: 'dark' },
  delivered: { bg: 'success' },
  dead: { bg: 'danger' },
};

export const DISABLED_BECAUSE = {
  gone: 'Disabled: it answered 410 Gone',
  failing: 'Disabled: every attempt failed for 5 days',
} as const;

/** The endpoint's last 24 hours: how many messages were attempted and the share delivered. */
export function lastDay({ last24h }: WebhookEndpoint) {
  if (last24h.attempted === 0) return 'No messages in 24 h';
  return `${Math.round((last24h.successRate ?? 0) * 100)}% of ${last24h.attempted} delivered in 24 h`;
}
