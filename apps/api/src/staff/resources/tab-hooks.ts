// The server rules of particular tabs, declared per tab (by its key) beside the generic
// service instead of branches on the tab key inside it. A tab without rules has no entry.
import { loyaltyCampaigns, loyaltyRewards, loyaltyTiers } from '@boardwalk/contract/staff-loyalty-tabs';
import { MAX_PARK_LOCATIONS, parkHours, parkLocations } from '@boardwalk/contract/staff-pass-tabs';
import { permissions, sessions, teamMembers } from '@boardwalk/contract/staff-team-tabs';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import type { DbRow } from './resources.repo.ts';
import { countParkLocationsLocked } from '../../wallet/park-settings.repo.ts';
import { listTierRules } from '../../loyalty/loyalty-rewards.repo.ts';
import { findCampaignFigures } from '../../loyalty/loyalty-campaigns.repo.ts';
import { budgetEdited } from '../../loyalty/loyalty-campaigns.service.ts';
import { operatingDay } from '../../platform/park-time.ts';
import { recordTierChangesOfTiersEdit } from '../../loyalty/loyalty.service.ts';
import { accessLevelOfMember, endSessionsOfMember } from '../auth/auth.repo.ts';
import { visitWindows } from '@boardwalk/contract/staff-visit-tabs';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { countReservationsOfWindow, windowCounts } from '../../guest/visits/visits.repo.ts';
import { VISIT_PLACES_FREED } from '../../guest/visits/visits.topics.ts';

/** What a write is about to do: `changes` are the columns an update sets (adjustable). */
export interface TabWrite {
  action: 'create' | 'update' | 'delete';
  id: string | null;
  /** The row as stored before an update or a delete (locked); null for a create. */
  stored: DbRow | null;
  changes: DbRow;
}

/** The staff member making the write: their access level as read for this request, and their session. */
export interface TabWriter {
  teamMemberGuid: string;
  accessLevel: number;
  sessionGuid: string;
}

export interface TabHooks {
  /** The row as it will be stored after a create or an update: throw an AppError to refuse. */
  validate?(row: DbRow): void;
  /** Before the write, inside its transaction: refuse (AppError) or adjust `changes`. */
  beforeWrite?(write: TabWrite, staff: TabWriter): void;
  /** After the write, in the same transaction (with its audit entry); `changes` publishes what it changed. */
  afterWrite?(tx: Executor, write: TabWrite & { row: DbRow }, staff: TabWriter, changes: ChangeBus): Promise<void>;
  /** Fills in the computed fields' columns of rows read (a list's page, an export's, a write's answer). */
  figures?(db: Executor, rows: DbRow[], at: { timeZone: string; now: Date }): Promise<void>;
}

/**
 * Editing a session's end time, or clearing sessionActive, ends it at once. The
 * end time becomes no later than now, so ticking Active again never revives a revoked token.
 */
function endSessionAtOnce({ action, stored, changes }: TabWrite) {
  if (action !== 'update' || !stored) return;
  const now = Date.now();
  if (changes.endTimestamp instanceof Date) changes.endTimestamp = new Date(Math.min(changes.endTimestamp.getTime(), now));
  else if (changes.active === false && stored.endTimestamp instanceof Date && stored.endTimestamp.getTime() > now)
    changes.endTimestamp = new Date(now);
}

/**
 * Members cannot lock themselves out: no deleting, deactivating or demoting one's own
 * account (another administrator can).
 */
function keepOwnAccess({ action, id, stored, changes }: TabWrite, staff: TabWriter) {
  if (action === 'create' || id !== staff.teamMemberGuid) return;
  const refuse = (what: string) => new AppError('CONFLICT', `You cannot ${what} your own account; ask another administrator.`);
  if (action === 'delete') throw refuse('delete');
  if (changes.active === false) throw refuse('deactivate');
  if (typeof changes.accessLevel === 'number' && changes.accessLevel < Number(stored?.accessLevel))
    throw refuse('lower the access level of');
}

/**
 * No member reaches above their own access level: none grants a level above their own (to
 * themselves, another member or a new one), nor changes or deletes a member whose level is
 * above their own (their password, their level, anything). 403 naming both levels.
 */
function withinOwnLevel(level: { column: string; field: string; stored: string; granted: string }) {
  return ({ action, stored, changes }: TabWrite, staff: TabWriter) => {
    const own = staff.accessLevel;
    if (stored && Number(stored[level.column]) > own) {
      const message = `You cannot change ${level.stored} (${Number(stored[level.column])}) is above your own (${own}).`;
      throw new AppError('FORBIDDEN', message);
    }
    const granted = changes[level.column];
    if (action !== 'delete' && typeof granted === 'number' && granted > own) {
      const message = `You cannot ${level.granted} above your own (${own}).`;
      throw new AppError('FORBIDDEN', message, { fields: [{ path: level.field, message }] });
    }
  };
}
const memberWithinOwnLevel = withinOwnLevel({
  column: 'accessLevel',
  field: 'teamMemberAccessLevel',
  stored: 'a team member whose access level',
  granted: 'grant an access level',
});
/** A permission: nobody lowers one set above their level, nor sets one above it (out of everyone else's reach). */
const permissionWithinOwnLevel = withinOwnLevel({
  column: 'minimumAccessLevel',
  field: 'permissionMinimumAccessLevel',
  stored: 'a permission whose minimum access level',
  granted: 'set a minimum access level',
});

/** Nobody ends the session of a member whose level is above their own. */
async function sessionWithinOwnLevel(tx: Executor, { row }: TabWrite & { row: DbRow }, staff: TabWriter) {
  const level = await accessLevelOfMember(tx, String(row.teamMemberGuid));
  if (level !== null && level > staff.accessLevel)
    throw new AppError(
      'FORBIDDEN',
      `You cannot change the session of a team member whose access level (${level}) is above your own (${staff.accessLevel}).`,
    );
}

/**
 * A new password or a deactivation ends the member's sessions at once (whoever set it could
 * otherwise stay logged in as them, and a thief keeps a stolen session). A member changing
 * their own password keeps the session they changed it from; every other one ends.
 */
async function endSessionsOnCredentialChange(tx: Executor, { action, changes, row }: TabWrite & { row: DbRow }, staff: TabWriter) {
  if (action !== 'update' || !('passwordHash' in changes || changes.active === false)) return;
  const guid = String(row.guid);
  await endSessionsOfMember(tx, guid, guid === staff.teamMemberGuid ? staff.sessionGuid : null);
}

/** A reward's dates, when both are set, are in order (the database's check backs this). */
function datesInOrder(row: DbRow) {
  if (row.validFrom instanceof Date && row.validTo instanceof Date && row.validFrom > row.validTo) {
    throw new AppError('VALIDATION_FAILED', 'Valid To must not be before Valid From', {
      fields: [{ path: 'loyaltyRewardValidTo', message: 'Valid To must not be before Valid From' }],
    });
  }
}

/** Longest operating day: a wallet's relevant interval spans at most 24 hours. */
const MAX_OPERATING_HOURS = 24;

/**
 * A span of a row ends after it starts, at most 24 hours later (an operating day's hours, an
 * entry window): its columns, the end's field (named in the refusal) and both fields' labels.
 */
const spanInOrder = (columns: { start: string; end: string }, endField: string, labels: { start: string; end: string }) => (row: DbRow) => {
  const start = row[columns.start];
  const end = row[columns.end];
  if (!(start instanceof Date) || !(end instanceof Date)) return;
  const hours = (end.getTime() - start.getTime()) / 3_600_000;
  const refuse = (message: string) => new AppError('VALIDATION_FAILED', message, { fields: [{ path: endField, message }] });
  if (hours <= 0) throw refuse(`${labels.end} must be after ${labels.start}`);
  if (hours > MAX_OPERATING_HOURS) throw refuse(`${labels.end} must be at most ${MAX_OPERATING_HOURS} hours after ${labels.start}`);
};

/** An operating day closes after it opens, at most 24 hours later. */
const hoursInOrder = spanInOrder({ start: 'opensAt', end: 'closesAt' }, 'parkHoursCloses', { start: 'Opens', end: 'Closes' });

/** At most MAX_PARK_LOCATIONS locations (what a pass carries). */
async function atMostTenLocations(tx: Executor, write: TabWrite) {
  if (write.action !== 'create') return;
  if ((await countParkLocationsLocked(tx)) > MAX_PARK_LOCATIONS)
    throw new AppError('CONFLICT', `At most ${MAX_PARK_LOCATIONS} park locations; delete one first.`);
}

/** A tier's rule as a row of the tab holds it. */
const tierRule = (row: DbRow) => ({ name: String(row.name), pointsToReach: Number(row.pointsToReach), active: row.active === true });

/**
 * A change of the tiers moves the members whose earned points now reach another tier: the
 * tiers as they were are today's with the written row as it was (none before a create, back
 * after a delete), and each member moved is told (loyalty.tier_changed).
 */
async function tellTierChanges(tx: Executor, { action, stored, changes, row }: TabWrite & { row: DbRow }) {
  // Only the name, the threshold and whether it is active decide a member's tier.
  if (action === 'update' && !['name', 'pointsToReach', 'active'].some((column) => column in changes)) return;
  const others = (await listTierRules(tx)).filter((tier) => tier.id !== row.id);
  const was = action === 'create' ? null : action === 'update' ? stored : row;
  await recordTierChangesOfTiersEdit(tx, was ? [...others, tierRule(was)] : others);
}

/** What a campaign kind is called in its messages. */
const CAMPAIGN_KIND_WORDS: Record<string, string> = {
  bonus: 'fixed bonus',
  birthday: 'birthday',
  referral: 'referral',
  challenge: 'challenge',
};

/** A campaign names what it gives for its kind and, on claims, at least one kind of purchase. */
function campaignRules(row: DbRow) {
  const refuse = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { fields: [{ path, message }] });
  if (row.kind === 'multiplier' && row.multiplier == null)
    throw refuse('loyaltyCampaignMultiplier', 'A multiplier campaign needs its Multiplier');
  if (row.kind !== 'multiplier' && row.bonusPoints == null)
    throw refuse('loyaltyCampaignBonusPoints', `A ${CAMPAIGN_KIND_WORDS[String(row.kind)]} campaign needs its Bonus Points`);
  // A birthday gift and a referral bonus are not on a purchase.
  if ((row.kind === 'multiplier' || row.kind === 'bonus') && !row.tickets && !row.foodAndBeverage && !row.hotel)
    throw refuse('loyaltyCampaignTickets', 'Choose at least one kind of purchase: Tickets, Food and Beverage or Hotel');
  if (row.kind === 'challenge' && row.goal == null) throw refuse('loyaltyCampaignGoal', 'A challenge needs its Challenge Goal');
  if (row.kind === 'challenge' && row.goalCount == null) throw refuse('loyaltyCampaignGoalCount', 'A challenge needs its Goal Count');
  if (typeof row.validFrom === 'string' && typeof row.validTo === 'string' && row.validFrom > row.validTo)
    throw refuse('loyaltyCampaignTo', 'To must not be before From');
}

/** Only a challenge has a goal: another kind's Challenge Goal and Goal Count are cleared (the database holds the rule too). */
function goalOnlyForChallenges({ stored, changes }: TabWrite) {
  const row = { ...stored, ...changes };
  if (row.kind === 'challenge' || (row.goal == null && row.goalCount == null)) return;
  changes.goal = null;
  changes.goalCount = null;
}

/** A campaign's budget edited: spent or running again by what it gave (budgetEdited), which the write's answer shows. */
async function budgetChanged(tx: Executor, { action, changes, row }: TabWrite & { row: DbRow }) {
  if (action !== 'update' || !('budget' in changes)) return;
  const budget = row.budget == null ? null : Number(row.budget);
  const spentAt = (row.budgetSpentAt as Date | null) ?? null;
  row.budgetSpentAt = await budgetEdited(tx, { id: String(row.id), name: String(row.name), budget, spentAt }, new Date());
}

/**
 * A campaign's figures, counted from its ledger entries: its status on today's operating day,
 * the points it stands at (its bonuses less those taken back), the members it reached and what is
 * left of its budget (what it gave, taken back or not, counts against it).
 */
async function campaignFigures(db: Executor, rows: DbRow[], at: { timeZone: string; now: Date }) {
  const figures = await findCampaignFigures(
    db,
    rows.map((row) => String(row.id)),
  );
  const today = operatingDay(at.now, at.timeZone);
  for (const row of rows) {
    const counted = figures.get(String(row.id)) ?? { given: 0, net: 0, members: 0 };
    row.pointsAwarded = counted.net;
    row.membersReached = counted.members;
    row.budgetLeft = row.budget === null ? null : Number(row.budget) - counted.given;
    row.status = campaignStatus(row, today);
  }
}

/** Where a campaign stands on an operating day. */
const campaignStatus = (row: DbRow, today: string) =>
  !row.active
    ? 'Inactive'
    : row.budgetSpentAt
      ? 'Budget spent'
      : today < String(row.validFrom)
        ? 'Scheduled'
        : today > String(row.validTo)
          ? 'Ended'
          : 'Running';

/** An entry window ends after it starts, within one operating day's hours. */
const windowInOrder = spanInOrder({ start: 'startsAt', end: 'endsAt' }, 'visitWindowEnds', { start: 'Starts', end: 'Ends' });

/** A window holding reservations keeps its times (its bookings were made for them); its capacity may change. */
async function windowTimesKept(tx: Executor, { action, changes, row }: TabWrite & { row: DbRow }, _staff: TabWriter, bus: ChangeBus) {
  if (action !== 'update') return;
  if (('startsAt' in changes || 'endsAt' in changes) && (await countReservationsOfWindow(tx, String(row.id))) > 0)
    throw new AppError(
      'CONFLICT',
      'This window holds reservations: its Starts and Ends cannot change. Change its capacity, or add another window.',
    );
  // A raised capacity moves the waitlist (the visits queue books it into the new places).
  if ('capacity' in changes) await bus.publish(tx, VISIT_PLACES_FREED, [String(row.id)]);
}

/** A window's places taken (booked, used or missed) and its waitlist's length. */
async function windowFigures(db: Executor, rows: DbRow[]) {
  const counts = await windowCounts(
    db,
    rows.map((row) => String(row.id)),
  );
  for (const row of rows) {
    const counted = counts.get(String(row.id)) ?? { taken: 0, waitlisted: 0 };
    row.booked = counted.taken;
    row.waitlisted = counted.waitlisted;
  }
}

export const tabHooks: Record<string, TabHooks> = {
  [visitWindows.key]: { validate: windowInOrder, afterWrite: windowTimesKept, figures: windowFigures },
  [parkHours.key]: { validate: hoursInOrder },
  [parkLocations.key]: { afterWrite: atMostTenLocations },
  [teamMembers.key]: {
    beforeWrite: (write, staff) => {
      keepOwnAccess(write, staff);
      memberWithinOwnLevel(write, staff);
    },
    afterWrite: endSessionsOnCredentialChange,
  },
  [sessions.key]: { beforeWrite: endSessionAtOnce, afterWrite: sessionWithinOwnLevel },
  [permissions.key]: { beforeWrite: permissionWithinOwnLevel },
  [loyaltyRewards.key]: { validate: datesInOrder },
  [loyaltyTiers.key]: { afterWrite: tellTierChanges },
  [loyaltyCampaigns.key]: {
    validate: campaignRules,
    beforeWrite: goalOnlyForChallenges,
    afterWrite: budgetChanged,
    figures: campaignFigures,
  },
};
