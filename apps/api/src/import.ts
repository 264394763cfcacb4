// `npm run import -- FILE.json`: loads orders, checks, reservations and usage events from a
// file into the configured database (DATABASE_URL, or PGlite in DATA_DIR), through the same
// validation and service functions as the integration API (integrations/import.command.ts).
// The file is applied whole or not at all. Exit codes: 0 imported, 1 invalid file or data
// (nothing written), 2 misuse. It builds the core and the jobs without workers, so what it
// changes is published to the same queues as a feed's: their jobs run in the server's workers.
import { resolve } from 'node:path';
import { buildWorker } from './app.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { keepFilesPrivate } from './platform/start.ts';
import { importFromFile } from './integrations/import.command.ts';

async function main(args: string[]): Promise<number> {
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith('-')) {
    console.error(
      'Usage: npm run import -- FILE.json\n  FILE.json: {"orders": {orderId: body}, "checks": {checkId: body}, "reservations": {number: body}, "usage": [events]}',
    );
    return 2;
  }
  let config;
  try {
    config = loadConfig({ ...process.env, DELIVERY_WORKERS: 'false' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  const app = await buildWorker({ config, logger: false });
  try {
    await app.ready();
    const result = await importFromFile({ db: app.database.db, changes: app.jobs, file: resolve(file) });
    (result.exitCode === 0 ? console.log : console.error)(result.lines.join('\n'));
    return result.exitCode;
  } finally {
    await app.close();
  }
}

// Whatever it creates in DATA_DIR (the embedded database's files) is the user's alone.
keepFilesPrivate();
process.exitCode = await main(process.argv.slice(2));
