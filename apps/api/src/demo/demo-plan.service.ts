// The demo's 90 days of loyalty history, planned: who joins the club on which day, what each
// member buys and claims, what they redeem, and the lookups of each day. Pure and
// deterministic: one seeded generator, days placed relative to `today`, so the same day gives
// the same plan (demo-history.service.ts carries it out through the product's own calls).
import type { ImportFile } from '@boardwalk/contract/integrations';
import { daysBetween, operatingDayBounds, shiftDate } from '../platform/park-time.ts';

/** Operating days of history, today included. */
export const HISTORY_DAYS = 90;

/** The tiers the demo club has (points earned in the last 365 days to reach each). */
export const DEMO_TIERS = [
  { name: 'Bronze', nameEs: 'Bronce', pointsToReach: 100 },
  { name: 'Silver', nameEs: 'Plata', pointsToReach: 500 },
  { name: 'Gold', nameEs: 'Oro', pointsToReach: 1500 },
] as const;

/**
 * The club's campaigns, each as the Loyalty Campaigns tab takes it, its days `from` and `to`
 * operating days after the demo's today (negative: before): a double points weekend on food and
 * beverage that ended (its bonuses in the history), a hotel bonus running now, a birthday gift
 * and an invitation campaign running all year.
 */
export const DEMO_CAMPAIGNS = [
  {
    fields: {
      loyaltyCampaignName: 'Double Points Weekend',
      loyaltyCampaignNameEs: 'Fin de semana de puntos dobles',
      loyaltyCampaignKind: 'multiplier',
      loyaltyCampaignMultiplier: 2,
      loyaltyCampaignFoodAndBeverage: true,
      loyaltyCampaignBudget: 5000,
    },
    from: -21,
    to: -20,
  },
  {
    fields: {
      loyaltyCampaignName: 'Hotel Stay Bonus',
      loyaltyCampaignNameEs: 'Bono por estadía en el hotel',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 100,
      loyaltyCampaignHotel: true,
      loyaltyCampaignCapPerMember: 300,
    },
    from: -5,
    to: 10,
  },
  {
    fields: {
      loyaltyCampaignName: 'Birthday Treat',
      loyaltyCampaignNameEs: 'Regalo de cumpleaños',
      loyaltyCampaignKind: 'birthday',
      loyaltyCampaignBonusPoints: 250,
    },
    from: -60,
    to: 300,
  },
  {
    fields: {
      loyaltyCampaignName: 'Bring a Friend',
      loyaltyCampaignNameEs: 'Traiga a un amigo',
      loyaltyCampaignKind: 'referral',
      loyaltyCampaignBonusPoints: 150,
      loyaltyCampaignReferralsPerMonth: 5,
    },
    from: -60,
    to: 300,
  },
  {
    fields: {
      loyaltyCampaignName: 'Three Visits Challenge',
      loyaltyCampaignNameEs: 'Reto de tres visitas',
      loyaltyCampaignKind: 'challenge',
      loyaltyCampaignGoal: 'days',
      loyaltyCampaignGoalCount: 3,
      loyaltyCampaignBonusPoints: 300,
      loyaltyCampaignTickets: true,
      loyaltyCampaignFoodAndBeverage: true,
      loyaltyCampaignHotel: true,
      loyaltyCampaignBudget: 30000,
    },
    from: -30,
    to: 30,
  },
];

/** The rewards catalogue: name, cost, the tier it needs, the limit per member. */
export const DEMO_REWARDS = [
  {
    name: 'Soft drink',
    description: 'Any fountain drink at a food stand',
    nameEs: 'Refresco',
    descriptionEs: 'Cualquier bebida de máquina en un puesto de comida',
    pointsCost: 60,
    minimumTier: null,
    limitPerMember: null,
  },
  {
    name: 'Arcade credits',
    description: '$10 of arcade credits',
    nameEs: 'Créditos de arcade',
    descriptionEs: '$10 en créditos de arcade',
    pointsCost: 150,
    minimumTier: null,
    limitPerMember: null,
  },
  {
    name: 'Fast lane pass',
    description: 'One fast lane ride',
    nameEs: 'Pase de fila rápida',
    descriptionEs: 'Un viaje por la fila rápida',
    pointsCost: 300,
    minimumTier: 'Silver',
    limitPerMember: 4,
  },
  {
    name: 'Hotel room upgrade',
    description: 'A sea view room for the price of a standard one',
    nameEs: 'Mejora de habitación de hotel',
    descriptionEs: 'Una habitación con vista al mar por el precio de una estándar',
    pointsCost: 900,
    minimumTier: 'Gold',
    limitPerMember: 1,
  },
] as const;

/**
 * The members the README lists: one in each tier and one without, and their member card: in
 * Apple Wallet on these devices (Maya's on her phone, her watch and an old iPad whose push token
 * APNs refuses), in Google Wallet, or nowhere.
 */
export const FEATURED_MEMBERS = [
  { firstName: 'Maya', lastName: 'Chen', profile: 'vip', card: ['fetches', 'fetches', 'stale'] },
  { firstName: 'Leo', lastName: 'Park', profile: 'fan', card: 'google' },
  { firstName: 'Ivy', lastName: 'Brooks', profile: 'regular', card: ['fetches'] },
  { firstName: 'Sam', lastName: 'Reed', profile: 'casual', card: null },
] as const;

type Profile = 'casual' | 'regular' | 'fan' | 'vip' | 'veteran';

const FIRST = [
  'Ava',
  'Noah',
  'Emma',
  'Liam',
  'Sofia',
  'Lucas',
  'Mia',
  'Ethan',
  'Zoe',
  'Omar',
  'Nina',
  'Kai',
  'Lena',
  'Hugo',
  'Aria',
  'Felix',
];
const LAST = ['Garcia', 'Nguyen', 'Smith', 'Patel', 'Rossi', 'Kowalski', 'Okafor', 'Silva', 'Moreau', 'Tanaka', 'Haddad', 'Jensen'];

/** Members of each profile joining over the 90 days (besides the featured ones), and veterans from the year before. */
const JOINING: Record<Exclude<Profile, 'veteran'>, number> = { casual: 20, regular: 16, fan: 10, vip: 5 };
/** The days (before today) the veterans joined: their points expire 365 days later, 80 to 7 days ago or in 7 to 22 days. */
const VETERANS = [-445, -425, -405, -385, -372, -358, -350, -343];
/** Purchases each profile claims (the first at joining, the rest on later days). */
const CLAIMS: Record<Profile, [number, number]> = { casual: [1, 1], regular: [2, 4], fan: [3, 5], vip: [4, 6], veteran: [2, 2] };

const SEED = 20_261_121;
const DAY_MS = 24 * 3600_000;

/** mulberry32: a small seeded generator, the same numbers for the same seed on every platform. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const cents = (min: number, max: number) => Math.round((min + next() * (max - min)) * 100) / 100;
  return { next, int, pick, cents };
}

export interface PlannedMember {
  key: number;
  email: string;
  firstName: string;
  lastName: string;
  joinsAt: Date;
}

/**
 * A device a member card is on, as the demo plays it (demo-wallet.service.ts): one that
 * 'fetches' each update it is pushed (a phone, a watch), one 'off' (APNs takes its pushes, it
 * never fetches), one whose token APNs refuses ('stale': 400, tried again until dead), one
 * 'wiped' (APNs answers 410 and the product removes its registration).
 */
export interface PlannedDevice {
  id: string;
  pushToken: string;
  kind: 'fetches' | 'off' | 'stale' | 'wiped';
}

/** A member card in a wallet: Apple's on its devices, or Google's (saved, or its link never used). */
export type PlannedCard = { wallet: 'apple'; devices: PlannedDevice[] } | { wallet: 'google'; saved: boolean };

export type PlannedStep =
  | { at: Date; kind: 'join'; member: PlannedMember }
  | { at: Date; kind: 'claim'; member: PlannedMember; type: 'ticket' | 'food-and-beverage' | 'hotel'; reference: string; checkId?: string }
  | { at: Date; kind: 'redeem'; member: PlannedMember; reward: number; key: string }
  | { at: Date; kind: 'expire' }
  | { at: Date; kind: 'card' | 'card-removed'; member: PlannedMember; card: PlannedCard };

export interface DemoPlan {
  /** The purchases, in the import file format (ingested before the steps). */
  purchases: Pick<ImportFile, 'orders' | 'checks' | 'reservations'>;
  /** In time order, none after `now`. */
  steps: PlannedStep[];
  /** Per operating day: the lookups found, failed and throttled, and share links opened. */
  lookups: { day: string; found: number; failed: number; throttled: number; shared: number }[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The plan for the HISTORY_DAYS operating days up to `today`; whatever would fall after `now` is left out. */
export function planHistory(today: string, timeZone: string, now: Date): DemoPlan {
  const rng = generator(SEED);
  const first = shiftDate(today, 1 - HISTORY_DAYS);
  /** A time of an operating day, `minutes` after 2:00 AM (the park opens 8 hours in). */
  const starts = new Map<string, number>();
  const at = (day: string, minutes: number) => {
    let start = starts.get(day);
    if (start === undefined) starts.set(day, (start = operatingDayBounds(day, timeZone).start.getTime()));
    return new Date(start + minutes * 60_000);
  };
  const openHours = () => rng.int(8 * 60, 19 * 60 + 30);
  const expires = `${shiftDate(today, 365)}T23:59:59Z`;
  const purchases: DemoPlan['purchases'] = { orders: {}, checks: {}, reservations: {} };
  const steps: PlannedStep[] = [];
  let serial = 0;

  const member = (key: number, firstName: string, lastName: string, joinsAt: Date): PlannedMember => ({
    key,
    firstName,
    lastName,
    joinsAt,
    email: `${firstName}.${lastName}${key > FEATURED_MEMBERS.length ? key : ''}@example.com`.toLowerCase(),
  });

  /** One purchase of the member on `day`, claimed by staff at `claimAt`. */
  const purchase = (m: PlannedMember, day: string, claimAt: Date, profile: Profile) => {
    const n = ++serial;
    const holder = { firstName: m.firstName, lastName: m.lastName, email: m.email };
    const roll = rng.next();
    // Casual members and regulars (Bronze) buy tickets and food; fans (Silver) and VIPs (Gold) stay at the hotel too.
    const small = profile === 'casual' || profile === 'regular';
    const hotel = profile === 'vip' ? roll < 0.6 : !small && profile !== 'veteran' && roll >= 0.8;
    const type = hotel ? 'hotel' : profile !== 'veteran' && roll < 0.45 ? 'ticket' : 'food-and-beverage';
    const boughtAt = new Date(claimAt.getTime() - rng.int(10, 90) * 60_000);
    if (type === 'ticket') {
      const orderId = `2${pad(n, 7)}`;
      const season = !small && rng.next() < 0.3;
      const count = small ? 1 : rng.int(1, 3);
      purchases.orders[orderId] = {
        orderDate: boughtAt.toISOString(),
        purchaser: holder,
        tickets: Array.from({ length: count }, (_, i) => ({
          barcode: `27${pad(n * 10 + i, 14)}`,
          product: season ? 'Season Pass' : 'Day Ticket',
          price: season ? 129.99 : 59.99,
          category: season ? 'Season Pass' : 'Day Ticket',
          categoryId: season ? '12' : '20',
          packId: season ? '240' : '100',
          merchItemId: season ? '9001' : '9100',
          isPassholder: season,
          holder,
          credits: 0,
          cash: 0,
          expires,
          redeemed: null,
          refunded: false,
          isPassActivated: false,
          iCloudBindingLink: null,
        })),
      };
      steps.push({ at: claimAt, kind: 'claim', member: m, type, reference: orderId });
    } else if (type === 'food-and-beverage') {
      const terminal = `FB-${pad(rng.int(1, 9), 2)}`;
      const checkNumber = String(6000 + n);
      const checkId = `${terminal.replace('-', '')}-${day.replaceAll('-', '')}-${checkNumber}`;
      const total = profile === 'casual' ? rng.cents(8, 45) : profile === 'veteran' ? rng.cents(60, 140) : rng.cents(15, 90);
      purchases.checks[checkId] = { checkNumber, orderDate: boughtAt.toISOString(), terminalId: terminal, total, refunded: false };
      steps.push({ at: claimAt, kind: 'claim', member: m, type, reference: checkNumber, checkId });
    } else {
      const reservationNumber = `H8${pad(n, 6)}`;
      const nights = rng.int(1, 3);
      purchases.reservations[reservationNumber] = {
        ...holder,
        arrival: shiftDate(day, -nights),
        departure: day,
        total: profile === 'vip' ? rng.cents(450, 800) : rng.cents(220, 420),
        cancelled: false,
      };
      steps.push({ at: claimAt, kind: 'claim', member: m, type, reference: reservationNumber });
    }
  };

  /** A member joining on `day` and their purchases then and on later days up to today. */
  const joining = (m: PlannedMember, day: string, profile: Profile, lastDay: string) => {
    steps.push({ at: m.joinsAt, kind: 'join', member: m });
    const [min, max] = CLAIMS[profile];
    const claims = rng.int(min, max);
    const span = Math.max(0, daysBetween(day, lastDay));
    for (let i = 0; i < claims; i++) {
      const later = i === 0 ? 0 : rng.int(Math.floor((span * (i - 1)) / claims), Math.floor((span * i) / claims));
      const claimDay = shiftDate(day, later);
      // Never before the account (a later claim on the joining day comes after the first).
      const soonest = m.joinsAt.getTime() + (i === 0 ? rng.int(2, 20) : 30 + i) * 60_000;
      const claimAt = new Date(i === 0 ? soonest : Math.max(soonest, at(claimDay, openHours()).getTime()));
      purchase(m, claimDay, claimAt, profile);
    }
  };

  let key = 0;
  // Veterans joined last year: their points expire (12 months) during the 90 days or soon after.
  for (const joined of VETERANS) {
    const day = shiftDate(today, joined);
    const m = member(++key + 100, rng.pick(FIRST), rng.pick(LAST), at(day, openHours()));
    joining(m, day, 'veteran', day);
  }
  // The featured members join in the first week, everyone else on any day.
  FEATURED_MEMBERS.forEach((f, i) => {
    const day = shiftDate(first, i + 1);
    joining(member(i + 1, f.firstName, f.lastName, at(day, openHours())), day, f.profile, today);
  });
  key = FEATURED_MEMBERS.length + VETERANS.length + 100;
  for (const [profile, count] of Object.entries(JOINING) as [Profile, number][]) {
    for (let i = 0; i < count; i++) {
      const day = shiftDate(first, rng.int(0, HISTORY_DAYS - 1));
      joining(member(++key, rng.pick(FIRST), rng.pick(LAST), at(day, openHours())), day, profile, today);
    }
  }

  // Redemptions: on most days, members who have claimed enough by then try a reward (staff
  // at the counter; the product refuses one they cannot have, and the demo goes on).
  const lookups: DemoPlan['lookups'] = [];
  const claims = steps.filter((s) => s.kind === 'claim');
  for (let d = 0; d < HISTORY_DAYS; d++) {
    const day = shiftDate(first, d);
    const weekend = [0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay());
    const opens = at(day, 8 * 60);
    const joined = claims.filter((s) => s.at < opens).map((s) => s.member);
    if (joined.length > 0 && rng.next() < 0.75) {
      for (let r = rng.int(1, weekend ? 4 : 2); r > 0; r--) {
        steps.push({
          at: at(day, openHours()),
          kind: 'redeem',
          member: rng.pick(joined),
          reward: rng.int(0, DEMO_REWARDS.length - 1),
          key: `demo-${day}-${r}`,
        });
      }
    }
    steps.push({ at: at(day, 21 * 60 + 30), kind: 'expire' });
    const found = rng.int(weekend ? 120 : 50, weekend ? 220 : 110);
    lookups.push({
      day,
      found,
      failed: Math.round(found * rng.cents(0.04, 0.12)),
      throttled: rng.next() < 0.15 ? rng.int(1, 6) : 0,
      shared: rng.int(0, 6),
    });
  }

  const kept = [...steps, ...planCards(steps)].filter((s) => s.at <= now).sort((a, b) => a.at.getTime() - b.at.getTime());
  // A purchase whose claim falls after now is not made (a future order would be odd).
  const claimed = new Set(kept.flatMap((s) => (s.kind === 'claim' ? [s.checkId ?? s.reference] : [])));
  const only = <T>(records: Record<string, T>) => Object.fromEntries(Object.entries(records).filter(([id]) => claimed.has(id)));
  return {
    purchases: { orders: only(purchases.orders), checks: only(purchases.checks), reservations: only(purchases.reservations) },
    steps: kept,
    lookups,
  };
}

/**
 * The member cards: who adds theirs to a wallet (minutes after their first claim, from the page
 * that answers it), on which devices, and the few who remove it weeks later. Numbers of their
 * own, so that the rest of the plan stays as it was.
 */
function planCards(steps: PlannedStep[]): PlannedStep[] {
  const rng = generator(SEED + 1);
  const hex = (length: number) => Array.from({ length }, () => Math.floor(rng.next() * 16).toString(16)).join('');
  const device = (kind: PlannedDevice['kind']): PlannedDevice => ({ id: hex(32), pushToken: hex(64), kind });
  const phone = () => {
    const roll = rng.next();
    return device(roll < 0.1 ? 'off' : roll < 0.16 ? 'wiped' : 'fetches');
  };
  const cardOf = (key: number): PlannedCard | null => {
    const featured = FEATURED_MEMBERS[key - 1]?.card;
    if (featured !== undefined)
      return featured === null
        ? null
        : featured === 'google'
          ? { wallet: 'google', saved: true }
          : { wallet: 'apple', devices: featured.map(device) };
    const roll = rng.next();
    if (roll < 0.55) return { wallet: 'apple', devices: [phone(), ...(rng.next() < 0.35 ? [device('fetches')] : [])] };
    return roll < 0.85 ? { wallet: 'google', saved: rng.next() < 0.85 } : null;
  };
  const cards: PlannedStep[] = [];
  const seen = new Set<number>();
  for (const step of steps) {
    if (step.kind !== 'claim' || seen.has(step.member.key)) continue;
    seen.add(step.member.key);
    const card = cardOf(step.member.key);
    if (!card) continue;
    const at = new Date(step.at.getTime() + rng.int(1, 15) * 60_000);
    cards.push({ at, kind: 'card', member: step.member, card });
    const removable = step.member.key > FEATURED_MEMBERS.length && (card.wallet === 'apple' || card.saved);
    if (removable && rng.next() < 0.08)
      cards.push({ at: new Date(at.getTime() + rng.int(3, 40) * DAY_MS), kind: 'card-removed', member: step.member, card });
  }
  return cards;
}
