// The server side of bench/lookup.ts (bench-servers.ts: the database, the app, the messages):
// the bare route doing the ticket's primary-key select, the seeded orders, and a check that
// both answer every lookup.
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { tickets } from '@boardwalk/db/schema';
import type { App } from '../apps/api/src/app.ts';
import { seedLookupData, type SeedReport } from './lookup-seed.ts';
import { BENCH_KEY, serveBenchPair } from './bench-servers.ts';
import type { ServersReady } from './load-driver.ts';

export interface Ready extends ServersReady {
  seed: SeedReport;
  /** How many looked-up passes each lateral join changed: proof the joins do real work. */
  coverage: Record<string, number>;
}

interface Pass {
  barcode: string;
  backgroundColor: string;
  ticketShares: unknown[];
  firstName: string | null;
  skipRegistration: boolean;
  excluded: string | null;
  isWristband: boolean;
}

/** Every seeded lookup must answer 200 on both servers before any load: a miss would trip the throttle. */
async function checkLookups(app: App, bare: FastifyInstance, lookups: SeedReport['lookups']) {
  const defaultBackground = `#${app.config.defaultPassColors.background.toLowerCase()}`;
  const joins: Record<string, (p: Pass) => boolean> = {
    customized: (p) => p.backgroundColor !== defaultBackground,
    'with shares': (p) => p.ticketShares.length > 0,
    registered: (p) => p.firstName?.startsWith('Guest') ?? false,
    'skip registration': (p) => p.skipRegistration,
    excluded: (p) => p.excluded !== null,
    wristbands: (p) => p.isWristband,
  };
  const coverage = Object.fromEntries(Object.keys(joins).map((name) => [name, 0]));
  for (const lookup of lookups) {
    const request = { method: 'POST', url: '/api/login/', payload: lookup } as const;
    const answers = { Boardwalk: await app.inject(request), bare: await bare.inject(request) };
    for (const [name, res] of Object.entries(answers)) {
      if (res.statusCode !== 200) throw new Error(`${name} lookup of ${JSON.stringify(lookup)} answered ${res.statusCode}: ${res.body}`);
    }
    const pass = answers.Boardwalk.json<Pass>();
    if (pass.barcode !== lookup.barcode) throw new Error(`Boardwalk lookup of ${lookup.barcode} answered barcode ${pass.barcode}`);
    for (const [name, applies] of Object.entries(joins)) if (applies(pass)) coverage[name] = (coverage[name] ?? 0) + 1;
  }
  return coverage;
}

await serveBenchPair<Ready>({}, async (app, db) => {
  // The least any lookup needs: the ticket's primary-key select, prepared once like the
  // product's lookup, at the same path with the same body.
  const selectTicket = db
    .select()
    .from(tickets)
    .where(eq(tickets.barcode, sql.placeholder('barcode')))
    .prepare('bare_ticket');
  const bare = Fastify().post<{ Body: { barcode: string } }>('/api/login/', async (request, reply) => {
    const [row] = await selectTicket.execute({ barcode: request.body.barcode });
    return row ?? reply.code(404).send({ error: 'NOT_FOUND' });
  });
  const seed = await seedLookupData(app, db, `Bearer ${BENCH_KEY}`);
  return { bare, report: { seed, coverage: await checkLookups(app, bare, seed.lookups) } };
});
