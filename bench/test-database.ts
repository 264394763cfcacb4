// npm run bench:test-database: what a test database on PGlite costs to start (createTestDatabase
// in packages/db/test-support/test-database.ts): a copy of the run's migrated template, opened,
// asked one query and closed. The baseline is PostgreSQL's buffer pool of 128MB, which every start
// allocates and zeroes; test databases start with 16MB. Both sides run in rounds, one after the
// other, in this process; the figure is this process's CPU (user and system).
//
//   BENCH_RUNS=8      starts per side and round
//   BENCH_ROUNDS=3    rounds
import { createDb } from '@boardwalk/db/client';
import { pgliteTemplateTarball, prepareTestTemplate } from '@boardwalk/db/test-support/test-database';
import { benchHeader, positiveNumber, printSides } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 8);
const ROUNDS = positiveNumber('BENCH_ROUNDS', 3);

async function main() {
  console.log(benchHeader('bench:test-database', `${RUNS} PGlite test databases per side and round, ${ROUNDS} rounds`));
  const removeTemplate = await prepareTestTemplate('pglite');
  try {
    const template = new Blob([pgliteTemplateTarball()!]);
    const sides = [
      { name: "PostgreSQL's 128MB buffer pool (baseline)", sharedBuffers: undefined, cpu: 0, ms: 0 },
      { name: 'a 16MB buffer pool', sharedBuffers: '16MB', cpu: 0, ms: 0 },
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        const [cpu, start] = [process.cpuUsage(), performance.now()];
        for (let i = 0; i < RUNS; i++) {
          const database = await createDb({ loadDataDir: template, pgliteSharedBuffers: side.sharedBuffers });
          await database.executeSql('select count(*) from loyalty_accounts');
          await database.close();
        }
        const used = process.cpuUsage(cpu);
        side.cpu += (used.user + used.system) / 1e6;
        side.ms += performance.now() - start;
      }
    }
    printSides(sides, RUNS * ROUNDS, 'start', 'CPU');
  } finally {
    await removeTemplate();
  }
}

await main();
