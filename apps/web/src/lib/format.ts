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
