// `npm run import -- FILE.json`: loads orders, checks, reservations and usage events from a
// file into the configured database (DATABASE_URL, or PGlite in DATA_DIR), through the same
// validation and service functions as the integration API. The file is applied whole or
// not at all. Exit codes: 0 imported, 1 invalid file or data (nothing written), 2 misuse.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@boardwalk/db/client';
import type { Executor } from '@boardwalk/db/client';
import { PRIVATE_UMASK } from '@boardwalk/db/private-files';
import { ConfigError, loadConfig } from '../platform/config.ts';
import { startJobQueue } from '../platform/jobs/job-queue.ts';
import { createTicketChanges, type TicketChanges } from '../platform/ticket-changes.plugin.ts';
import { emptyReport, ingestRecords, type IngestCounts, type IngestReport } from './ingest.service.ts';

export interface ImportResult {
  report: IngestReport;
  /** The summary to print, one line each. */
  lines: string[];
  exitCode: 0 | 1;
}

const counts = (c: IngestCounts) => `${c.created} created, ${c.replaced} replaced, ${c.unchanged} unchanged`;

export function summarize(source: string, report: IngestReport): string[] {
  if (report.errors.length > 0) {
    const n = report.errors.length;
    return [
      `${source}: not imported, ${n} ${n === 1 ? 'error' : 'errors'} (nothing was written):`,
      ...report.errors.map((e) => `  ${e.record} ${e.field}: ${e.message}`),
    ];
  }
  return [
    `${source}: imported`,
    `  orders:       ${counts(report.orders)}`,
    `  checks:       ${counts(report.checks)}`,
    `  reservations: ${counts(report.reservations)}`,
    `  usage:        ${report.usage.accepted} accepted, ${report.usage.duplicates} duplicates`,
  ];
}

/** Reads FILE (JSON) and ingests it into db. */
export async function importFromFile(opts: { db: Executor; ticketChanges: TicketChanges; file: string }): Promise<ImportResult> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(opts.file, 'utf8'));
  } catch (error) {
    const message = error instanceof SyntaxError ? `not valid JSON: ${error.message}` : `cannot be read: ${(error as Error).message}`;
    const report = emptyReport([{ record: '(file)', field: '(record)', message }]);
    return { report, lines: summarize(opts.file, report), exitCode: 1 };
  }
  const report = await ingestRecords({ db: opts.db, ticketChanges: opts.ticketChanges, data });
  return { report, lines: summarize(opts.file, report), exitCode: report.errors.length > 0 ? 1 : 0 };
}

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
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  const database = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Changed tickets are published like the feed's: their wallet jobs run in the server's workers.
  const jobs = await startJobQueue(database, config.deliveries, (error) => console.warn(`job queue: ${error.message}`));
  try {
    const ticketChanges = createTicketChanges(jobs, config.deliveries.coalesceSeconds);
    const result = await importFromFile({ db: database.db, ticketChanges, file: resolve(file) });
    (result.exitCode === 0 ? console.log : console.error)(result.lines.join('\n'));
    return result.exitCode;
  } finally {
    await jobs.stop();
    await database.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Whatever it creates in DATA_DIR (the embedded database's files) is the user's alone.
  process.umask(PRIVATE_UMASK);
  process.exitCode = await main(process.argv.slice(2));
}
