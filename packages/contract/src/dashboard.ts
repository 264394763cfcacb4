// The back office Dashboard (staff, Dashboard View): the club's and the passes' figures over a
// range of the park's operating days (each from 2:00 AM to the next day's 2:00 AM in
// PARK_TIMEZONE), every figure counted by the database. A day with nothing is in each series
// with zeros, so every series has one row per day of the range, oldest first.
import { z } from 'zod';

export const DASHBOARD_API = '/api/admin/dashboard/';

/** The ranges a staff member chooses: the current operating day, or the last 7, 30 or 90 (today included). */
export const DASHBOARD_RANGES = ['today', '7', '30', '90'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
export const DASHBOARD_RANGE_LABELS: Record<DashboardRange, string> = {
  today: 'Today',
  '7': 'Last 7 days',
  '30': 'Last 30 days',
  '90': 'Last 90 days',
};
/** How many operating days a range holds. */
export const DASHBOARD_RANGE_DAYS: Record<DashboardRange, number> = { today: 1, '7': 7, '30': 30, '90': 90 };

export const dashboardQuery = z.strictObject({
  range: z.enum(DASHBOARD_RANGES, { error: 'range must be today, 7, 30 or 90' }).default('7'),
});

const day = z.iso.date().describe("An operating day (YYYY-MM-DD in the park): from its 2:00 AM to the next day's");
const count = z.number().int().nonnegative();

export const dashboardClaimsDay = z.object({
  day,
  tickets: count.describe('Ticket purchases claimed that day (a claim later reversed included)'),
  foodAndBeverage: count.describe('Food and beverage checks claimed'),
  hotel: count.describe('Hotel reservations claimed'),
  newMembers: count.describe('Loyalty accounts created (and not removed since)'),
});

export const dashboardPointsDay = z.object({
  day,
  earned: count.describe('Points of the earn entries'),
  redeemed: z.number().int().describe('Points spent on rewards, less those given back by reversed redemptions'),
  reversed: count.describe('Points taken back from claims refunded, cancelled or removed'),
  expired: count.describe('Points expired'),
  adjusted: z.number().int().describe("Staff adjustments' net points (signed)"),
  campaigns: z.number().int().describe("Campaigns' bonus points, less those taken back with their purchases"),
});

export const dashboardWalletDay = z.object({
  day,
  applePasses: count.describe('Apple Wallet device registrations made that day (still registered)'),
  googleObjects: count.describe("Google Wallet objects saved that day (Google's save callbacks)"),
  shareLinksOpened: count.describe('Share links that guests opened that day and that found their pass'),
});

export const dashboardLookupsDay = z.object({
  day,
  found: count.describe("Guests' pass lookups (POST /api/login/) that found the pass"),
  failed: count.describe('Lookups that found none (a wrong order id or barcode, an unknown or stopped share link)'),
  throttled: count.describe('Lookups refused by the throttle (too many failed ones from the address or for the order id)'),
});

export const dashboardDeliveriesDay = z.object({
  day,
  sent: count.describe('Deliveries (Apple pushes, Google updates, mails) delivered that day'),
  dead: count.describe('Deliveries that became dead that day'),
  fetchedPushes: count.describe('Apple pushes sent that day whose device then fetched the pass'),
  fetchP50Seconds: z.number().nullable().describe('Their push-to-fetch latency, median, in seconds (null: none fetched)'),
  fetchP95Seconds: z.number().nullable().describe('Their push-to-fetch latency, 95th percentile, in seconds'),
});

export const dashboardReservationsDay = z.object({
  day,
  capacity: count.describe("The passholder places of that day's entry windows"),
  booked: count.describe('Places taken: bookings, those used at the gate and the no-shows'),
  capacityUsed: z.number().nullable().describe('Places taken of the capacity, in percent (one decimal); null: no window that day'),
  waitlisted: count.describe('Passes on a waitlist for that day (a past day: those never promoted)'),
  noShows: count.describe('Bookings not used by the end of their window'),
});

export const dashboard = z.object({
  range: z.enum(DASHBOARD_RANGES),
  timeZone: z.string().describe("The park's time zone (PARK_TIMEZONE)"),
  from: day.describe('The first operating day of the range'),
  to: day.describe('The last: the current operating day'),
  claims: z.array(dashboardClaimsDay),
  points: z.array(dashboardPointsDay),
  outstanding: z
    .object({
      points: count.describe('Points members hold now that can be spent (a negative balance counts as 0)'),
      expiring: z
        .object({ within30Days: count, within60Days: count, within90Days: count })
        .nullable()
        .describe('Of them, those expiring within 30, 60 and 90 days; null when points never expire (LOYALTY_POINTS_EXPIRE_MONTHS unset)'),
    })
    .nullable()
    .describe('The points liability: null unless the staff member holds Loyalty Export (the ledger is theirs to download anyway)'),
  tiers: z
    .array(z.object({ tier: z.string().nullable().describe('null: members below every tier'), members: count }))
    .describe('Members per active tier now, highest first, then those in none'),
  wallet: z.object({
    days: z.array(dashboardWalletDay),
    activeDevices: count.describe('Apple Wallet device registrations now'),
  }),
  deliveries: z.array(dashboardDeliveriesDay),
  lookups: z.array(dashboardLookupsDay),
  reservations: z.array(dashboardReservationsDay).describe("Passholders' visit reservations per day (docs/visit-reservations.md)"),
});
export type Dashboard = z.infer<typeof dashboard>;
