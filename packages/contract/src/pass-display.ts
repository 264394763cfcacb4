// How a pass's values read on the guest pages, in en-US and USD (the wallet passes and the
// voucher write theirs in the guest's language from the catalogue, i18n/passes.ts): names,
// credits, cash, and why a ticket is void (redeemed, expired, refunded). Dates are in the given
// time zone: the browser's (a guest at the park) on the page.
import type { PassOrder } from './pass.ts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const formatUsd = (amount: number): string => usd.format(amount);

export const formatCredits = (credits: number): string => `${count.format(credits)} ${credits === 1 ? 'Credit' : 'Credits'}`;

/** "Jane", "Doe" -> "Jane Doe"; missing parts are skipped. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
}

export const isStoredValueCard = (order: Pick<PassOrder, 'category'>) => order.category?.trim().toLowerCase() === 'stored value card';

export const ticketholderName = (order: Pick<PassOrder, 'firstName' | 'lastName'>) => fullName(order.firstName, order.lastName);

/** The purchaser's name, or '' when it is missing or the ticketholder's own. */
export function purchaserName(order: PassOrder): string {
  const purchaser = fullName(order.purchaserFirstName, order.purchaserLastName);
  return purchaser.toLowerCase() === ticketholderName(order).toLowerCase() ? '' : purchaser;
}

/** Why a pass is void (refunded, redeemed, expired); empty when it is valid. */
export function voidReasons(order: PassOrder, now = new Date()): ('Refunded' | 'Redeemed' | 'Expired')[] {
  const reasons: ('Refunded' | 'Redeemed' | 'Expired')[] = [];
  if (order.refunded) reasons.push('Refunded');
  if (order.isRedeemed || order.redeemed) reasons.push('Redeemed');
  if (order.expires && new Date(order.expires).getTime() < now.getTime()) reasons.push('Expired');
  return reasons;
}

export interface DateFormats {
  /** "Nov 21, 2026" */
  date(iso: string): string;
  /** "Nov 21, 2026, 2:05 PM" */
  dateTime(iso: string): string;
}

const formatsByZone = new Map<string, DateFormats>();

/** Date formatters for a time zone (undefined: the runtime's own), made once per zone. */
export function dateFormats(timeZone?: string): DateFormats {
  const key = timeZone ?? '';
  let formats = formatsByZone.get(key);
  if (!formats) {
    const date = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric' });
    const dateTime = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    formats = { date: (iso) => date.format(new Date(iso)), dateTime: (iso) => dateTime.format(new Date(iso)) };
    formatsByZone.set(key, formats);
  }
  return formats;
}
