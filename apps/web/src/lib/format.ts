// Formatting for guests: en-US, USD (guest-app.md section 9). Dates and times are shown in
// the browser's time zone, which for a guest at the park is the park's.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const date = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export const formatUsd = (amount: number): string => usd.format(amount);

export const formatCredits = (credits: number): string => `${count.format(credits)} ${credits === 1 ? 'Credit' : 'Credits'}`;

export const formatDate = (iso: string): string => date.format(new Date(iso));

export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));

/** "3105550100" -> "(310) 555-0100"; anything that is not 10 digits is left as it is. */
export function formatPhone(digits: string): string {
  const d = digits.replace(/\D/g, '');
  return d.length === 10 ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : digits;
}

/** "Jane", "Doe" -> "Jane Doe"; missing parts are skipped. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
}
