// The import (`npm run import -- FILE.json`, started by src/import.ts): loads orders, checks,
// reservations and usage events from a file through the same validation and service functions
// as the integration API. The file is applied whole or not at all.
import { readFile } from 'node:fs/promises';
import type { Executor } from '@boardwalk/db/client';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
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
export async function importFromFile(opts: { db: Executor; changes: ChangeBus; file: string }): Promise<ImportResult> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(opts.file, 'utf8'));
  } catch (error) {
    const message = error instanceof SyntaxError ? `not valid JSON: ${error.message}` : `cannot be read: ${(error as Error).message}`;
    const report = emptyReport([{ record: '(file)', field: '(record)', message }]);
    return { report, lines: summarize(opts.file, report), exitCode: 1 };
  }
  const report = await ingestRecords({ db: opts.db, changes: opts.changes, data });
  return { report, lines: summarize(opts.file, report), exitCode: report.errors.length > 0 ? 1 : 0 };
}
