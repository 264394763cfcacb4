// The visit reservations of a passholder's pass page (docs/visit-reservations.md): the next days'
// entry windows with what each is for the pass (open, full, booked, waitlisted), Book (or Move
// Here when the pass holds that day's booking elsewhere), Join Waitlist, Cancel Booking and
// Leave Waitlist; a day not open yet, a blocked day, the no-show block. Its own chunk: only a
// passholder's own guest loads it, and it shows nothing for a pass that needs no reservation.
import { useCallback, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useFormatter, useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import type { VisitCalendar, VisitDay, VisitWindow } from '@boardwalk/contract/visits';
import { AreaTexts } from '../../lib/language.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { useChangeVisit, useVisitCalendar, useVisitErrors, type VisitChange } from './visits-api.ts';

export function VisitsSection({ order }: { order: PassOrder }) {
  return (
    <AreaTexts areas={['visits']}>
      <Visits pass={{ orderId: order.orderId, barcode: order.barcode }} />
    </AreaTexts>
  );
}

/** The formatters of the park's clock (the calendar's time zone), in the page's language. */
function useParkFormat(timeZone: string) {
  const format = useFormatter();
  return {
    day: useCallback(
      (day: string) => format.dateTime(new Date(`${day}T12:00:00Z`), { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }),
      [format],
    ),
    time: useCallback(
      (iso: string) => format.dateTime(new Date(iso), { timeZone, hour: 'numeric', minute: '2-digit' }),
      [format, timeZone],
    ),
    date: useCallback(
      (iso: string) => format.dateTime(new Date(iso), { timeZone, dateStyle: 'long', timeStyle: 'short' }),
      [format, timeZone],
    ),
  };
}

function Visits({ pass }: { pass: { orderId: string; barcode: string } }) {
  const t = useTranslations('visits');
  const calendar = useVisitCalendar(pass);
  if (calendar.isPending) {
    return (
      <p className="panel panel--wide" role="status">
        {t('loading')}
      </p>
    );
  }
  if (calendar.isError) {
    return (
      <section className="panel panel--wide" aria-labelledby="visits-heading">
        <h2 id="visits-heading" className="h4 fw-semibold mb-2">
          {t('heading')}
        </h2>
        <p className="alert alert-danger">{t('loadFailed')}</p>
        <Button variant="outline-primary" onClick={() => void calendar.refetch()}>
          {t('retry')}
        </Button>
      </section>
    );
  }
  if (!calendar.data.required) return null;
  return <Calendar pass={pass} calendar={calendar.data} />;
}

function Calendar({ pass, calendar }: { pass: { orderId: string; barcode: string }; calendar: VisitCalendar }) {
  const t = useTranslations('visits');
  const park = useParkFormat(calendar.timeZone);
  const change = useChangeVisit(pass);
  const describeError = useVisitErrors(park.date);
  const [notice, setNotice] = useState<string | null>(null);
  const windowText = (w: VisitWindow) => t('window', { start: park.time(w.startsAt), end: park.time(w.endsAt) });

  const run = (request: VisitChange, day: string, w: VisitWindow) => {
    setNotice(null);
    change.mutate(request, {
      onSuccess: () => {
        const place = { day: park.day(day), window: windowText(w) };
        setNotice(
          request.action === 'book'
            ? t('bookedNotice', place)
            : request.action === 'waitlist'
              ? t('waitlistedNotice', place)
              : t('cancelledNotice'),
        );
      },
    });
  };

  return (
    <section className="panel panel--wide" aria-labelledby="visits-heading">
      <h2 id="visits-heading" className="h4 fw-semibold mb-2">
        {t('heading')}
      </h2>
      <p className="panel__intro">{t('intro')}</p>
      {calendar.blockedUntil ? (
        <p className="alert alert-warning" data-testid="visits-blocked">
          {t('blocked', { date: park.date(calendar.blockedUntil) })}
        </p>
      ) : null}
      <p className="mb-2">{t('held', { upcoming: calendar.upcoming, limit: calendar.limit })}</p>
      <LiveAlert message={change.isError ? describeError(change.error) : null} />
      <p className="visually-hidden-focusable mb-0" role="status">
        {notice}
      </p>
      {notice ? (
        <p className="alert alert-success mb-0" aria-hidden="true">
          {notice}
        </p>
      ) : null}
      {calendar.days.length === 0 ? <p className="text-body-secondary mt-3">{t('noDays')}</p> : null}
      {calendar.days.map((day) => (
        <Day
          key={day.day}
          day={day}
          calendar={calendar}
          busy={change.isPending}
          onChange={run}
          windowText={windowText}
          dayText={park.day(day.day)}
          opensText={day.opensAt ? park.date(day.opensAt) : null}
        />
      ))}
    </section>
  );
}

interface DayProps {
  day: VisitDay;
  calendar: VisitCalendar;
  busy: boolean;
  dayText: string;
  opensText: string | null;
  windowText: (w: VisitWindow) => string;
  onChange: (change: VisitChange, day: string, w: VisitWindow) => void;
}

function Day({ day, calendar, busy, dayText, opensText, windowText, onChange }: DayProps) {
  const t = useTranslations('visits');
  const headingId = `visits-day-${day.day}`;
  const bookingThatDay = day.windows.some((w) => w.state === 'booked');
  // A booking used at the gate shows booked without a reservation to cancel: one visit a day.
  const usedThatDay = day.windows.some((w) => w.state === 'booked' && !w.reservationId);
  // Booking needs the day open, not blocked out, no no-show block and no visit made that day.
  const bookable = !day.blocked && opensText === null && calendar.blockedUntil === null && !usedThatDay;
  return (
    <section className="mt-3" aria-labelledby={headingId}>
      <h3 id={headingId} className="h6 fw-semibold mb-2">
        {dayText}
      </h3>
      {day.blocked ? <p className="text-body-secondary mb-0">{t('dayBlocked')}</p> : null}
      {!day.blocked && opensText ? <p className="text-body-secondary mb-0">{t('opensAt', { date: opensText })}</p> : null}
      {day.blocked || opensText ? null : (
        <ul className="list-unstyled d-grid gap-2 mb-0">
          {day.windows.map((w) => (
            <WindowRow
              key={w.windowId}
              w={w}
              text={windowText(w)}
              dayText={dayText}
              bookable={bookable}
              busy={busy}
              bookingThatDay={bookingThatDay}
              onChange={(change) => onChange(change, day.day, w)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** A booked window stands out green, a waitlisted one amber (Bootstrap's utilities: the one stylesheet stays as it is). */
const WINDOW_LOOKS: Record<VisitWindow['state'], string> = {
  booked: ' border-success bg-success-subtle',
  waitlisted: ' border-warning bg-warning-subtle',
  open: '',
  full: '',
};

interface WindowRowProps {
  w: VisitWindow;
  text: string;
  dayText: string;
  bookable: boolean;
  busy: boolean;
  bookingThatDay: boolean;
  onChange: (change: VisitChange) => void;
}

function WindowRow({ w, text, dayText, bookable, busy, bookingThatDay, onChange }: WindowRowProps) {
  const t = useTranslations('visits');
  const state =
    w.state === 'booked'
      ? t('booked')
      : w.state === 'waitlisted'
        ? t('waitlisted', { position: w.waitlistPosition ?? 1 })
        : w.state === 'full'
          ? t('full')
          : t('placesLeft', { count: w.placesLeft });
  let action: { label: string; variant: string; change: VisitChange } | null = null;
  if (w.reservationId && (w.state === 'booked' || w.state === 'waitlisted')) {
    action = {
      label: w.state === 'booked' ? t('cancel') : t('leaveWaitlist'),
      variant: 'outline-dark',
      change: { action: 'cancel', reservationId: w.reservationId },
    };
  } else if (bookable && w.state === 'open') {
    action = { label: bookingThatDay ? t('move') : t('book'), variant: 'primary', change: { action: 'book', windowId: w.windowId } };
  } else if (bookable && w.state === 'full') {
    action = { label: t('joinWaitlist'), variant: 'outline-primary', change: { action: 'waitlist', windowId: w.windowId } };
  }
  return (
    <li
      className={`d-flex flex-wrap gap-2 align-items-center justify-content-between py-2 ps-3 border rounded${WINDOW_LOOKS[w.state]}`}
      data-testid="visits-window"
    >
      <div>
        <div className="fw-semibold" data-testid="visits-window-time">
          {text}
        </div>
        <div className="text-body-secondary" data-testid="visits-window-state">
          {state}
        </div>
      </div>
      {action ? (
        <Button
          variant={action.variant}
          size="sm"
          disabled={busy}
          aria-label={t('actionLabel', { action: action.label, day: dayText, window: text })}
          onClick={() => onChange(action.change)}
        >
          {busy ? t('saving') : action.label}
        </Button>
      ) : null}
    </li>
  );
}
