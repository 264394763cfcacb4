// One entry point for data that arrives in a file rather than over HTTP: the import
// command and the demo loader. Each record goes through the same schema and the same
// service function as its route. A file is applied whole or not at all: every record is
// validated first, then all are written in one transaction, rolled back on any conflict.
import {
  checkFeed,
  checkIdParam,
  importFile,
  MAX_USAGE_EVENTS,
  orderFeed,
  orderIdParam,
  reservationFeed,
  reservationParam,
  usageEvent,
  type UpsertOutcome,
  type UsageEvent,
} from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import type { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import { upsertCheck } from './pos/checks.service.ts';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import { upsertOrder } from './ticketing/orders.service.ts';
import { upsertReservation } from './hotel/reservations.service.ts';
import { recordUsage } from './gate/usage.service.ts';

export type IngestCounts = Record<UpsertOutcome, number>;

export interface IngestError {
  /** The record, as it is named in the file: orders.10000001, usage[3], or (file). */
  record: string;
  /** The field within the record, e.g. tickets.0.barcode; (record) for the record as a whole. */
  field: string;
  message: string;
}

export interface IngestReport {
  orders: IngestCounts;
  checks: IngestCounts;
  reservations: IngestCounts;
  usage: { accepted: number; duplicates: number };
  /** When not empty, nothing was written. */
  errors: IngestError[];
}

const noCounts = (): IngestCounts => ({ created: 0, replaced: 0, unchanged: 0 });
/** A report of nothing written, with these errors. */
export const emptyReport = (errors: IngestError[] = []): IngestReport => ({
  orders: noCounts(),
  checks: noCounts(),
  reservations: noCounts(),
  usage: { accepted: 0, duplicates: 0 },
  errors,
});

function issuesOf(record: string, error: z.ZodError): IngestError[] {
  return error.issues.map((issue) => ({ record, field: issue.path.join('.') || '(record)', message: issue.message }));
}

/** Validates one record: its key (the path parameter of its route) and its body. */
function validateRecord<P, B>(
  errors: IngestError[],
  record: string,
  param: { safeParse(v: unknown): z.ZodSafeParseResult<P> },
  paramValue: unknown,
  body: { safeParse(v: unknown): z.ZodSafeParseResult<B> },
  bodyValue: unknown,
): { param: P; body: B } | null {
  const p = param.safeParse(paramValue);
  const b = body.safeParse(bodyValue);
  if (!p.success) errors.push(...issuesOf(record, p.error));
  if (!b.success) errors.push(...issuesOf(record, b.error));
  return p.success && b.success ? { param: p.data, body: b.data } : null;
}

class Rollback extends Error {}

/** Validates and writes a whole import file (its format: importFile in the contract). */
export async function ingestRecords(opts: { db: Executor; changes: ChangeBus; data: unknown }): Promise<IngestReport> {
  const file = importFile.safeParse(opts.data);
  if (!file.success) return emptyReport(issuesOf('(file)', file.error));

  const errors: IngestError[] = [];
  const orders = Object.entries(file.data.orders).flatMap(([id, body]) => {
    const ok = validateRecord(errors, `orders.${id}`, orderIdParam, { orderId: id }, orderFeed, body);
    return ok ? [{ record: `orders.${id}`, orderId: ok.param.orderId, order: ok.body }] : [];
  });
  const checks = Object.entries(file.data.checks).flatMap(([id, body]) => {
    const ok = validateRecord(errors, `checks.${id}`, checkIdParam, { checkId: id }, checkFeed, body);
    return ok ? [{ record: `checks.${id}`, checkId: ok.param.checkId, check: ok.body }] : [];
  });
  const reservations = Object.entries(file.data.reservations).flatMap(([id, body]) => {
    const ok = validateRecord(errors, `reservations.${id}`, reservationParam, { reservationNumber: id }, reservationFeed, body);
    return ok ? [{ record: `reservations.${id}`, reservationNumber: ok.param.reservationNumber, reservation: ok.body }] : [];
  });
  const events: UsageEvent[] = [];
  file.data.usage.forEach((value, i) => {
    const parsed = usageEvent.safeParse(value);
    if (parsed.success) events.push(parsed.data);
    else errors.push(...issuesOf(`usage[${i}]`, parsed.error));
  });
  if (errors.length > 0) return emptyReport(errors);

  const report = emptyReport();
  /** Counts one record's outcome; a refusal (a barcode of another order) is reported, not thrown. */
  const count = async (record: string, counts: IngestCounts, write: () => Promise<UpsertOutcome>) => {
    try {
      // Each service function runs in a savepoint here: a refused record leaves the transaction usable.
      counts[await write()]++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const fields = error.extra.fields ?? [{ path: '(record)', message: error.message }];
      report.errors.push(...fields.map((f) => ({ record, field: f.path, message: f.message })));
    }
  };
  try {
    await opts.db.transaction(async (db) => {
      for (const o of orders)
        await count(o.record, report.orders, () => upsertOrder({ db, changes: opts.changes, orderId: o.orderId, order: o.order }));
      for (const c of checks)
        await count(c.record, report.checks, () => upsertCheck({ db, changes: opts.changes, checkId: c.checkId, check: c.check }));
      for (const r of reservations) {
        await count(r.record, report.reservations, () =>
          upsertReservation({ db, changes: opts.changes, reservationNumber: r.reservationNumber, reservation: r.reservation }),
        );
      }
      for (let i = 0; i < events.length; i += MAX_USAGE_EVENTS) {
        const result = await recordUsage({ db, changes: opts.changes, events: events.slice(i, i + MAX_USAGE_EVENTS) });
        report.usage.accepted += result.accepted;
        report.usage.duplicates += result.duplicates;
      }
      if (report.errors.length > 0) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
    return emptyReport(report.errors);
  }
  return report;
}
