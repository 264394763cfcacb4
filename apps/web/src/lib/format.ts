// Formatting for guests, in the page's language (lib/language.tsx: use-intl's locale, en-US or
// es-US) and USD. Dates and times are shown in the device's time zone, which for a guest at
// the park is the park's.
import { useMemo } from 'react';
import { useFormatter, useTranslations } from 'use-intl';

import { dateFormats } from '@boardwalk/contract/pass-display';

export { fullName } from '@boardwalk/contract/pass-display';

/** The back office's dates, in English (the staff pages speak English only). */
export const { date: formatDate, dateTime: formatDateTime } = dateFormats();

/** "3105550100" -> "(310) 555-0100"; anything that is not 10 digits is left as it is. */
export function formatPhone(digits: string): string {
  const d = digits.replace(/\D/g, '');
  return d.length === 10 ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : digits;
}

const DATE = { month: 'short', day: 'numeric', year: 'numeric' } as const;
const TIME = { hour: 'numeric', minute: '2-digit' } as const;

/**
 * The page's formatters: "Nov 21, 2026", "Nov 21, 2026, 2:05 PM", "$12.50", "1,500 Credits" in
 * English, "21 nov 2026", "$12.50", "1,500 créditos" in Spanish; and when a page was shown:
 * "at 3:42 PM" today, "on Nov 24 at 3:42 PM" before.
 */
export function useFormats() {
  const format = useFormatter();
  const t = useTranslations('common.formats');
  return useMemo(
    () => ({
      date: (iso: string) => format.dateTime(new Date(iso), DATE),
      dateTime: (iso: string) => format.dateTime(new Date(iso), { ...DATE, ...TIME }),
      usd: (amount: number) => format.number(amount, { style: 'currency', currency: 'USD' }),
      credits: (credits: number) => t('credits', { credits }),
      shownAt(iso: string, now = new Date()) {
        const at = new Date(iso);
        const time = format.dateTime(at, TIME);
        return at.toDateString() === now.toDateString()
          ? t('shownToday', { time })
          : t('shownBefore', { day: format.dateTime(at, { month: 'short', day: 'numeric' }), time });
      },
    }),
    [format, t],
  );
}
