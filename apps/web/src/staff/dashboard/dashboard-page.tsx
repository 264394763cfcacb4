// The Dashboard tab (Dashboard View), the back office's first page: for the chosen range of
// operating days (in the address, ?range=), the club's standing now (points outstanding and
// expiring, members per tier, Apple devices) and, per day, claims and new members, points by
// kind, wallet adoption and share links opened, deliveries, guests' pass lookups, passholders'
// visit reservations (capacity, places taken, waitlist, no-shows) and the Apple pushes'
// push-to-fetch latency. Each figure is a chart, its numbers as a table and a CSV
// download (figure-section.tsx). Loaded on its own (staff-routes.tsx), so the charting library
// comes only with this page.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { useSearchParams } from 'react-router';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DASHBOARD_RANGE_LABELS, DASHBOARD_RANGES, type Dashboard, type DashboardRange } from '@boardwalk/contract/dashboard';
import { StaffLoading } from '../admin/staff-loading.tsx';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { dashboardQuery } from './dashboard-api.ts';
import { FigureSection, type FigureColumn } from './figure-section.tsx';

/** Okabe and Ito's palette: told apart with any colour vision. */
const COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#000000'];

interface Series<R> {
  key: keyof R & string;
  label: string;
}

/** The legend's words in the page's ink (Recharts colours them like their series, some too light to read). */
const legendText = (value: string) => <span className="staff-figure__legend">{value}</span>;

/** A short day on the axis: 3/8. */
const shortDay = (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}`;
const number = new Intl.NumberFormat('en-US');

// The charts are pictures of the numbers below them (hidden from screen readers, and out of the
// keyboard's way: no accessibility layer); the tables are what assistive technology reads. They
// are drawn at once, not animated in (figures refreshed every minute should not move).
function DayBars<R extends { day: string }>({ rows, series, stacked }: { rows: R[]; series: Series<R>[]; stacked?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={12} />
        <YAxis allowDecimals={false} width={48} />
        <Tooltip />
        <Legend formatter={legendText} />
        {series.map((s, i) => (
          <Bar
            isAnimationActive={false}
            key={s.key}
            dataKey={s.key as string}
            name={s.label}
            fill={COLORS[i % COLORS.length]}
            {...(stacked && { stackId: 'day' })}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

const dayColumn = { key: 'day', label: 'Operating day' } as const;
const columnsOf = <R extends { day: string }>(series: Series<R>[]): FigureColumn<R>[] => [dayColumn, ...series];

/**
 * A figure of series per operating day: its bar chart, its numbers and their CSV. `name` makes
 * its id (dashboard-claims) and, with the range, its file (claims-2026-03-01-to-2026-03-07).
 */
function DaySeriesFigure<R extends { day: string }>(props: {
  name: string;
  range: string;
  title: string;
  rows: R[];
  series: Series<R>[];
  stacked?: boolean;
}) {
  const { rows, series, stacked } = props;
  return (
    <FigureSection
      id={`dashboard-${props.name}`}
      title={props.title}
      rows={rows}
      columns={columnsOf(series)}
      file={`${props.name}-${props.range}`}
      chart={<DayBars rows={rows} series={series} stacked={stacked} />}
    />
  );
}

const CLAIMS: Series<Dashboard['claims'][number]>[] = [
  { key: 'tickets', label: 'Tickets' },
  { key: 'foodAndBeverage', label: 'Food and beverage' },
  { key: 'hotel', label: 'Hotel' },
  { key: 'newMembers', label: 'New members' },
];
const POINTS: Series<Dashboard['points'][number]>[] = [
  { key: 'earned', label: 'Earned' },
  { key: 'redeemed', label: 'Redeemed' },
  { key: 'reversed', label: 'Reversed' },
  { key: 'expired', label: 'Expired' },
  { key: 'adjusted', label: 'Adjusted' },
  { key: 'campaigns', label: 'Campaign bonuses' },
];
const WALLET: Series<Dashboard['wallet']['days'][number]>[] = [
  { key: 'applePasses', label: 'Apple Wallet passes added' },
  { key: 'googleObjects', label: 'Google Wallet passes saved' },
  { key: 'shareLinksOpened', label: 'Share links opened' },
];
const LOOKUPS: Series<Dashboard['lookups'][number]>[] = [
  { key: 'found', label: 'Found' },
  { key: 'failed', label: 'Not found' },
  { key: 'throttled', label: 'Refused (too many attempts)' },
];
const DELIVERIES: Series<Dashboard['deliveries'][number]>[] = [
  { key: 'sent', label: 'Sent' },
  { key: 'dead', label: 'Dead' },
];
const LATENCY: Series<Dashboard['deliveries'][number]>[] = [
  { key: 'fetchedPushes', label: 'Pushes fetched' },
  { key: 'fetchP50Seconds', label: 'Push to fetch, median (s)' },
  { key: 'fetchP95Seconds', label: 'Push to fetch, 95th percentile (s)' },
];

type ReservationsDay = Dashboard['reservations'][number];
/** The day's capacity beside the places taken of it (same unit, same axis), the waitlist and the no-shows. */
const RESERVATIONS: Series<ReservationsDay>[] = [
  { key: 'capacity', label: 'Capacity' },
  { key: 'booked', label: 'Places taken' },
  { key: 'waitlisted', label: 'Waitlisted' },
  { key: 'noShows', label: 'No-shows' },
];
const RESERVATION_COLUMNS: FigureColumn<ReservationsDay>[] = [
  dayColumn,
  ...RESERVATIONS.slice(0, 2),
  // Like the latency's seconds: the unit in the heading (and the CSV's), a day without windows a dash.
  { key: 'capacityUsed', label: 'Capacity used (%)' },
  ...RESERVATIONS.slice(2),
];

function Standing({ data }: { data: Dashboard }) {
  const members = data.tiers.reduce((sum, t) => sum + t.members, 0);
  const cards: [string, number][] = [
    ...(data.outstanding ? ([['Points outstanding', data.outstanding.points]] as [string, number][]) : []),
    ...(data.outstanding?.expiring
      ? ([
          ['Expiring within 30 days', data.outstanding.expiring.within30Days],
          ['Expiring within 60 days', data.outstanding.expiring.within60Days],
          ['Expiring within 90 days', data.outstanding.expiring.within90Days],
        ] as [string, number][])
      : []),
    ['Members', members],
    ['Apple devices registered', data.wallet.activeDevices],
  ];
  return (
    <section aria-labelledby="dashboard-now-heading" className="mb-4">
      <h3 id="dashboard-now-heading" className="visually-hidden">
        Now
      </h3>
      <ul className="staff-stats list-unstyled">
        {cards.map(([label, value]) => (
          <li key={label}>
            <span className="staff-stats__label">{label}</span>
            <span className="staff-stats__value">{number.format(value)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Figures({ data }: { data: Dashboard }) {
  const range = `${data.from}-to-${data.to}`;
  const fetched = data.deliveries.some((d) => d.fetchedPushes > 0);
  const reserving = data.reservations.some((d) => d.capacity > 0 || d.booked > 0 || d.waitlisted > 0);
  const tiers = data.tiers.map((t) => ({ tier: t.tier ?? 'No tier', members: t.members }));
  return (
    <div className="staff-figures">
      <DaySeriesFigure name="claims" range={range} title="Claims and new members per day" rows={data.claims} series={CLAIMS} />
      <DaySeriesFigure name="points" range={range} title="Points per day" rows={data.points} series={POINTS} />
      <FigureSection
        id="dashboard-tiers"
        title="Members per tier"
        rows={tiers}
        columns={[
          { key: 'tier', label: 'Tier' },
          { key: 'members', label: 'Members' },
        ]}
        file="members-per-tier"
        chart={
          <ResponsiveContainer width="100%" height={Math.max(120, data.tiers.length * 40)}>
            <BarChart accessibilityLayer={false} data={tiers} layout="vertical">
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} />
              <YAxis type="category" dataKey="tier" width={96} />
              <Tooltip />
              <Bar isAnimationActive={false} dataKey="members" name="Members" fill={COLORS[0]} />
            </BarChart>
          </ResponsiveContainer>
        }
      />
      <DaySeriesFigure
        name="wallet"
        range={range}
        title="Wallet passes added and share links opened per day"
        rows={data.wallet.days}
        series={WALLET}
      />
      <DaySeriesFigure name="deliveries" range={range} title="Deliveries per day" rows={data.deliveries} series={DELIVERIES} />
      <DaySeriesFigure name="lookups" range={range} title="Guest pass lookups per day" rows={data.lookups} series={LOOKUPS} stacked />
      {reserving && (
        <FigureSection
          id="dashboard-reservations"
          title="Visit reservations per day"
          rows={data.reservations}
          columns={RESERVATION_COLUMNS}
          file={`reservations-${range}`}
          chart={<DayBars rows={data.reservations} series={RESERVATIONS} />}
        />
      )}
      {fetched && (
        <FigureSection
          id="dashboard-latency"
          title="Apple push to fetch per day"
          rows={data.deliveries}
          columns={columnsOf(LATENCY)}
          file={`push-to-fetch-${range}`}
          chart={
            <ResponsiveContainer width="100%" height={240}>
              <LineChart accessibilityLayer={false} data={data.deliveries} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={12} />
                <YAxis width="auto" unit=" s" />
                <Tooltip />
                <Legend formatter={legendText} />
                <Line isAnimationActive={false} dataKey="fetchP50Seconds" name="Median (s)" stroke={COLORS[0]} connectNulls />
                <Line isAnimationActive={false} dataKey="fetchP95Seconds" name="95th percentile (s)" stroke={COLORS[4]} connectNulls />
              </LineChart>
            </ResponsiveContainer>
          }
        />
      )}
    </div>
  );
}

const isRange = (value: string | null): value is DashboardRange => DASHBOARD_RANGES.includes(value as DashboardRange);

export default function DashboardPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('range');
  const range: DashboardRange = isRange(requested) ? requested : '7';
  const { data, error } = useQuery(dashboardQuery(range));
  const handleError = useStaffErrorHandler();
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);

  return (
    <section aria-labelledby="dashboard-heading" className="staff-dashboard">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 id="dashboard-heading" className="h4 mb-0 me-auto">
          Dashboard
        </h2>
        <ToggleButtonGroup
          type="radio"
          name="dashboard-range"
          value={range}
          onChange={(value: DashboardRange) => setSearchParams({ range: value }, { replace: true })}
          aria-label="Range"
        >
          {DASHBOARD_RANGES.map((r) => (
            <ToggleButton key={r} id={`dashboard-range-${r}`} value={r} variant="outline-primary" size="sm">
              {DASHBOARD_RANGE_LABELS[r]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </div>
      {data ? (
        <>
          <p className="text-body-secondary small">
            {data.from === data.to ? `Operating day ${data.to}` : `Operating days ${data.from} to ${data.to}`} (each from 2:00 AM,{' '}
            {data.timeZone})
          </p>
          <Standing data={data} />
          <Figures data={data} />
        </>
      ) : (
        !error && <StaffLoading label="Loading the figures…" />
      )}
    </section>
  );
}
