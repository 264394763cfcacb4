// npm run bench:stored-value: POST /api/stored-value/ under load on PostgreSQL and on PGlite,
// each beside a bare Fastify route doing one prepared select of the same rows (the link, its
// ticket's balance, today's usage as JSON) on the same database in the same run. 500 Stored
// Value Cards with 6 usage events today and 6 on each of the 20 days before; the load cycles
// over 200 of them (bench/stored-value-servers.ts; the driver and its settings:
// bench/load-driver.ts).
import { fmt } from './bench-support.ts';
import { runLoadBench } from './load-driver.ts';
import type { Ready } from './stored-value-servers.ts';

await runLoadBench<Ready>({
  name: 'bench:stored-value',
  servers: new URL('./stored-value-servers.ts', import.meta.url),
  path: '/api/stored-value/',
  compares: "POST /api/stored-value/ vs bare Fastify route, one prepared select of link + ticket + today's usage, same database",
  describeSeed: ({ seed }) =>
    `${fmt(seed.cards)} cards (+ ${fmt(seed.otherTickets)} other tickets), ${fmt(seed.usageEvents)} usage events; ${seed.hashes.length} cards cycled, ${seed.todayPerCard} events today each`,
  bodies: ({ seed }) => seed.hashes.map((barcodeHash) => JSON.stringify({ barcodeHash })),
});
