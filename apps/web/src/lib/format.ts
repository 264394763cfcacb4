// Formatting for guests: en-US, USD. Dates and times are shown in the browser's time zone,
// which for a guest at the park is the park's.
import { dateFormats } from '@boardwalk/contract/pass-display';

export { formatCredits, formatUsd, fullName } from '@boardwalk/contract/pass-display';

export const { date: formatDate, dateTime: formatDateTime } = dateFormats();

/** "3105550100" -> "(310) 555-0100"; anything that is not 10 digits is left as it is. */
export function formatPhone(digits: string): string {
  const d = digits.replace(/\D/g, '');
  return d.length === 10 ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : digits;
}

const shownTime = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const shownDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/** When a page was shown, in the device's time: "at 3:42 PM" today, "on Nov 24 at 3:42 PM" before. */
export function formatShownAt(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const time = `at ${shownTime.format(at)}`;
  return at.toDateString() === now.toDateString() ? time : `on ${shownDay.format(at)} ${time}`;
}
