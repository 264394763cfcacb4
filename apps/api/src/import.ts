// `npm run import -- FILE.json`: loads orders, checks, reservations and usage events from a
// file into the configured database (DATABASE_URL, or PGlite in DATA_DIR), through the same
// validation and service functions as the integration API (integrations/import.command.ts).
// The file is applied whole or not at all. Exit codes: 0 imported, 1 invalid file or data
// (nothing written), 2 misuse. It runs on the core and the jobs without workers (command.ts).
import { resolve } from 'node:path';
import { withCore } from './command.ts';
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
  return withCore(async (app) => {
    const result = await importFromFile({ db: app.database.db, changes: app.jobs, file: resolve(file) });
    (result.exitCode === 0 ? console.log : console.error)(result.lines.join('\n'));
    return result.exitCode;
  });
}

// Whatever it creates in DATA_DIR (the embedded database's files) is the user's alone.
keepFilesPrivate();
process.exitCode = await main(process.argv.slice(2));
