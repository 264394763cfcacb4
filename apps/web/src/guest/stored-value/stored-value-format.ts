// How the stored-value page reads: times in the park's time zone (the answer names it), the
// operating day as its calendar date, USD and credits in en-US.
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** "10:05 AM" in the park's time zone. */
export function formatParkTime(iso: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });
    timeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** "2026-11-21" -> "Saturday, November 21, 2026" (a calendar date: no zone moves it). */
export const formatOperatingDay = (day: string): string => dayFormat.format(new Date(`${day}T12:00:00Z`));
