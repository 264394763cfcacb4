// npm run bench:lookup: POST /api/login/ under load on PostgreSQL and on PGlite, each beside a
// bare Fastify route doing the ticket's primary-key select on the same database in the same
// run (bench/lookup-servers.ts; the driver and its settings: bench/load-driver.ts).
import { fmt } from './bench-support.ts';
import { runLoadBench } from './load-driver.ts';
import type { Ready } from './lookup-servers.ts';

await runLoadBench<Ready>({
  name: 'bench:lookup',
  servers: new URL('./lookup-servers.ts', import.meta.url),
  path: '/api/login/',
  compares: 'POST /api/login/ vs bare Fastify primary-key select on the same database',
  describeSeed: ({ seed, coverage }) =>
    `${fmt(seed.orders)} orders / ${fmt(seed.tickets)} tickets; ${seed.lookups.length} lookups cycled: ${Object.entries(coverage)
      .map(([join, n]) => `${n} ${join}`)
      .join(', ')}`,
  bodies: ({ seed }) => seed.lookups.map((l) => JSON.stringify(l)),
  goals: { ratio: 0.5, p99Ms: 20 },
});
