// The server side of bench/stored-value.ts (bench-servers.ts: the database, the app, the
// messages): the bare route doing one prepared select of the link, the ticket and today's
// usage, the cards seeded through the product's write paths (orders feed, gate usage feed,
// login for the links), and a check that both answer every card.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { attractionUsage, storedValueLinks, tickets } from '@boardwalk/db/schema';
import type { App } from '../apps/api/src/app.ts';
import { operatingDayBounds } from '../apps/api/src/guest/stored-value/stored-value.service.ts';
import { BENCH_KEY, serveBenchPair } from './bench-servers.ts';
import type { ServersReady } from './load-driver.ts';

export interface SeedReport {
  cards: number;
  otherTickets: number;
  usageEvents: number;
  todayPerCard: number;
  /** The barcodeHashes the load cycles over. */
  hashes: string[];
}

export interface Ready extends ServersReady {
  seed: SeedReport;
}

const TIME_ZONE = 'America/Los_Angeles';
/** 500 orders, each a Stored Value Card and a day ticket; the load cycles over 200 of the cards. */
const ORDER_COUNT = 500;
const LOOKUP_CARDS = 200;
/** Each card: 6 events today and 6 on each of the 20 days before (history the query must skip). */
const TODAY_EVENTS = 6;
const PAST_DAYS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

const orderIdOf = (i: number) => String(30_000_000 + i);
const cardOf = (i: number) => `35${String(i * 2).padStart(14, '0')}`;
const ATTRACTIONS = [
  ['Sea Dragon', 'West Pier'],
  ['Carousel', 'Main Pier'],
  ['Ring Toss', 'Midway'],
  ['Pacific Wheel', 'Main Pier'],
  ['Bumper Cars', 'Midway'],
  ['Log Flume', 'East Pier'],
] as const;

async function seed(app: App): Promise<SeedReport> {
  const auth = { authorization: `Bearer ${BENCH_KEY}` };
  for (let i = 0; i < ORDER_COUNT; i++) {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/integrations/orders/${orderIdOf(i)}`,
      headers: auth,
      payload: {
        orderDate: '2026-11-01T18:15:00Z',
        purchaser: { firstName: `Ana${i}`, lastName: 'Lopez' },
        tickets: [
          {
            barcode: cardOf(i),
            product: 'Stored Value Card $50',
            category: 'Stored Value Card',
            holder: { firstName: `Holder${i}`, lastName: 'Lopez' },
            credits: i % 50,
            cash: (i % 7) * 2.5,
          },
          { barcode: `36${String(i * 2 + 1).padStart(14, '0')}`, product: 'Day Ticket', category: 'Day Ticket', holder: {} },
        ],
      },
    });
    if (res.statusCode !== 201) throw new Error(`seeding order ${orderIdOf(i)} answered ${res.statusCode}: ${res.body}`);
  }
  // Today's events spread over the part of the operating day that has passed; earlier days' at the same offsets.
  const now = Date.now();
  const { from } = operatingDayBounds(new Date(now), TIME_ZONE);
  const step = Math.max(1000, Math.floor((now - from.getTime()) / (TODAY_EVENTS + 1)));
  const events: { barcode: string; attraction: string; location: string; timestamp: string }[] = [];
  for (let i = 0; i < ORDER_COUNT; i++) {
    for (let day = 0; day <= PAST_DAYS; day++) {
      for (let k = 0; k < TODAY_EVENTS; k++) {
        const [attraction, location] = ATTRACTIONS[(i + k) % ATTRACTIONS.length]!;
        const at = from.getTime() - day * DAY_MS + (k + 1) * step + (i % 60) * 10;
        events.push({ barcode: cardOf(i), attraction, location, timestamp: new Date(at).toISOString() });
      }
    }
  }
  for (let start = 0; start < events.length; start += 1000) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/integrations/usage',
      headers: auth,
      payload: { events: events.slice(start, start + 1000) },
    });
    if (res.statusCode !== 200) throw new Error(`seeding usage answered ${res.statusCode}: ${res.body}`);
  }
  // The links, as guests get them: the login answer of each card.
  const hashes: string[] = [];
  for (let n = 0; n < LOOKUP_CARDS; n++) {
    const i = Math.floor((n * ORDER_COUNT) / LOOKUP_CARDS);
    const res = await app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: orderIdOf(i), barcode: cardOf(i) } });
    const hash = res.statusCode === 200 ? (res.json() as { barcodeHash: string | null }).barcodeHash : null;
    if (!hash) throw new Error(`login of card ${cardOf(i)} answered ${res.statusCode} without a barcodeHash: ${res.body}`);
    hashes.push(hash);
  }
  return { cards: ORDER_COUNT, otherTickets: ORDER_COUNT, usageEvents: events.length, todayPerCard: TODAY_EVENTS, hashes };
}

interface Answer {
  barcode: string;
  attractions: unknown[];
}

/** Every hash must answer 200 with today's events on both servers before any load: a miss would trip the throttle. */
async function check(app: App, bare: FastifyInstance, hashes: string[]) {
  for (const barcodeHash of hashes) {
    const request = { method: 'POST', url: '/api/stored-value/', payload: { barcodeHash } } as const;
    for (const [name, server] of [
      ['Boardwalk', app],
      ['bare', bare],
    ] as const) {
      const res = await server.inject(request);
      if (res.statusCode !== 200) throw new Error(`${name} answered ${res.statusCode} for a seeded card: ${res.body}`);
      const answer = res.json<Answer>();
      if (answer.attractions.length !== TODAY_EVENTS)
        throw new Error(`${name} answered ${answer.attractions.length} of today's ${TODAY_EVENTS} events for ${answer.barcode}`);
    }
  }
}

await serveBenchPair<Ready>({ PARK_TIMEZONE: TIME_ZONE }, async (app, db) => {
  // The least the page needs, in one prepared round trip: the link, its ticket's balance and
  // today's usage as a JSON array, at the same path with the same body.
  const u = attractionUsage;
  const todays = sql<unknown[]>`coalesce((select json_agg(json_build_object('attraction', ${u.attraction}, 'location', ${u.location},
      'timestamp', ${u.timestamp}) order by ${u.timestamp}) from ${u}
    where ${and(eq(u.barcode, tickets.barcode), gte(u.timestamp, sql.placeholder('from')), lt(u.timestamp, sql.placeholder('to')))}), '[]'::json)`;
  const selectCard = db
    .select({ barcode: tickets.barcode, credits: tickets.credits, cash: tickets.cash, attractions: todays })
    .from(storedValueLinks)
    .innerJoin(tickets, eq(tickets.barcode, storedValueLinks.barcode))
    .where(eq(storedValueLinks.barcodeHash, sql.placeholder('barcodeHash')))
    .prepare('bare_stored_value');
  const bare = Fastify().post<{ Body: { barcodeHash: string } }>('/api/stored-value/', async (request, reply) => {
    const { from, to } = operatingDayBounds(new Date(), TIME_ZONE);
    const [row] = await selectCard.execute({ barcodeHash: request.body.barcodeHash, from: from.toISOString(), to: to.toISOString() });
    return row ?? reply.code(404).send({ error: 'NOT_FOUND' });
  });
  const seeded = await seed(app);
  await check(app, bare, seeded.hashes);
  return { bare, report: { seed: seeded } };
});
