// The park settings passes carry (back office tabs Park Hours, Park Locations and Park
// Notices): the operating hours that bring a pass to the lock screen, the places at the park
// where it comes up, and what the park tells every passholder.
import { MAX_PARK_LOCATIONS } from '@boardwalk/contract/staff-pass-tabs';
import { and, asc, count, gt, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { parkHours, parkLocations, parkNotices } from '@boardwalk/db/schema';

export interface OperatingHours {
  opensAt: Date;
  closesAt: Date;
}

export interface ParkLocation {
  name: string;
  latitude: number;
  longitude: number;
  relevantText: string | null;
  /** The lock-screen text in Spanish (null: the English one). */
  relevantTextEs: string | null;
}

/** The operating hours that open from `from` (inclusive) up to `to` (exclusive), at most `limit`, the earliest first. */
export async function findOperatingHours(db: Executor, range: { from: Date; to: Date | null; closingAfter?: Date; limit: number }) {
  return db
    .select({ opensAt: parkHours.opensAt, closesAt: parkHours.closesAt })
    .from(parkHours)
    .where(
      and(
        gte(parkHours.opensAt, range.from),
        range.to ? lt(parkHours.opensAt, range.to) : undefined,
        range.closingAfter ? gt(parkHours.closesAt, range.closingAfter) : undefined,
      ),
    )
    .orderBy(asc(parkHours.opensAt))
    .limit(range.limit);
}

/** A notice of the park's, in English and (null: the English) Spanish. */
export interface ParkNotice {
  text: string;
  textEs: string | null;
}

/** The park's notices, the oldest first (a pass's content must not change with the read). */
export async function findParkNotices(db: Executor): Promise<ParkNotice[]> {
  return db
    .select({ text: parkNotices.text, textEs: parkNotices.textEs })
    .from(parkNotices)
    .orderBy(asc(parkNotices.createdAt), asc(parkNotices.guid));
}

/** The park's locations, in a stable order (a pass's content must not change with the read). */
export async function findParkLocations(db: Executor): Promise<ParkLocation[]> {
  return db
    .select({
      name: parkLocations.name,
      latitude: parkLocations.latitude,
      longitude: parkLocations.longitude,
      relevantText: parkLocations.relevantText,
      relevantTextEs: parkLocations.relevantTextEs,
    })
    .from(parkLocations)
    .orderBy(asc(parkLocations.name), asc(parkLocations.guid))
    .limit(MAX_PARK_LOCATIONS);
}

/**
 * How many locations there are, counted under a transaction lock on the locations (taken
 * after a write, so two writers never both count what the other has not committed).
 */
export async function countParkLocationsLocked(tx: Executor): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('park_locations'))`);
  const [row] = await tx.select({ n: count() }).from(parkLocations);
  return row?.n ?? 0;
}
