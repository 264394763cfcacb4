// The stored-value page (POST /api/stored-value/): a card's credits and cash from the
// ticketing feed and its attraction usage of the park's current operating day (from 2:00 AM in
// PARK_TIMEZONE to the next 2:00 AM, also across a daylight-saving change).
import type { StoredValueRequest, StoredValueResponse } from '@boardwalk/contract/stored-value';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { operatingDay, operatingDayStart } from '../../platform/park-time.ts';
import type { Caller, TicketCore } from '../ticket/ticket.service.ts';
import { findUsageBetween } from '../../integrations/gate/usage.repo.ts';

/** What the stored-value page is built with, once (stored-value.routes.ts). */
export interface StoredValueDeps {
  db: Executor;
  tickets: TicketCore;
  config: Pick<Config, 'parkTimezone'>;
}

const HOUR_MS = 60 * 60 * 1000;

export interface OperatingDayBounds {
  /** The operating day's first instant (2:00 AM park time) and the next day's (23, 24 or 25 hours later). */
  from: Date;
  to: Date;
  /** Its calendar date in the park, YYYY-MM-DD. */
  day: string;
}

/** The last day asked for, per time zone: the zone arithmetic runs once a day, not once a request. */
const lastDays = new Map<string, OperatingDayBounds>();

/** The operating day containing `now`. */
export function operatingDayBounds(now: Date, timeZone: string): OperatingDayBounds {
  const last = lastDays.get(timeZone);
  if (last && last.from.getTime() <= now.getTime() && now.getTime() < last.to.getTime()) return last;
  const from = operatingDayStart(now, timeZone);
  // 26 hours on is always inside the next operating day, however long this one is.
  const bounds = { from, to: operatingDayStart(new Date(from.getTime() + 26 * HOUR_MS), timeZone), day: operatingDay(now, timeZone) };
  lastDays.set(timeZone, bounds);
  return bounds;
}

/** POST /api/stored-value/ */
export async function getStoredValue(
  deps: StoredValueDeps,
  request: Caller & StoredValueRequest,
  now = new Date(),
): Promise<StoredValueResponse> {
  const ticket = await deps.tickets.findByHash(request);
  const timeZone = deps.config.parkTimezone;
  const { from, to, day } = operatingDayBounds(now, timeZone);
  const usage = await findUsageBetween(deps.db, { barcode: ticket.barcode, from, to });
  return {
    barcode: ticket.barcode,
    credits: ticket.credits,
    cash: ticket.cash,
    today: day,
    timeZone,
    attractions: usage.map((u) => ({ attraction: u.attraction, location: u.location, timestamp: u.timestamp.toISOString() })),
  };
}
