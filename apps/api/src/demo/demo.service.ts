// The demo data set (README "Demo data"): the orders, checks, reservations and usage of
// demo-data.json, loaded through the same ingest code as `npm run import`, plus the staff
// configuration those orders need. Loaded once, into a database without orders.
import { readFile } from 'node:fs/promises';
import type { ImportFile } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { ingestRecords, type IngestReport } from '../integrations/ingest.service.ts';
import { hashSecret } from '../platform/secrets.ts';
import { TZDate } from '@date-fns/tz';
import { daysBetween, operatingDay, operatingDayStart, shiftDate, shiftInstant } from '../platform/park-time.ts';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import { hasOrders, insertDemoConfiguration, lockDemoLoad, type DemoConfiguration } from './demo.repo.ts';
import { loadHistory, type HistoryDeps, type HistoryReport } from './demo-history.service.ts';

const demoDataFile = new URL('./demo-data.json', import.meta.url);

/** The direct share links of the demo (88 URL-safe characters, like real ones; README lists them). */
export const DEMO_SHARE_LINKS = {
  active: 'd__6Hzm8fzraBU5wQzPddkB6TF2CbDfKZEyT92j9aL5SdtG7WfNBR7nEY4inwba1JBOvQqkgRP2II7Yw4A-7Hp8i',
  stopped: '5caVpR1TftIfBktL6q3DSuvHgHeKHLGTxMw-EE-fvLOonF1X039KjkB6SqGpt9XtBxrCfCk4TunZTZ8xNZ79tjbQ',
} as const;

const STORED_VALUE_BARCODE = '3500000000000028';

/** Operating days the demo's Park Hours hold: from a week before today. */
const DEMO_OPERATING_DAYS = 60;

/**
 * The demo park's hours: every day from a week before `today` for DEMO_OPERATING_DAYS days,
 * 10:00 AM to 10:00 PM in the park (11:00 PM on Fridays and Saturdays).
 */
function demoParkHours(today: string, timeZone: string): DemoConfiguration['parkHours'] {
  return Array.from({ length: DEMO_OPERATING_DAYS }, (_, i) => {
    const day = shiftDate(today, i - 7);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    const at = (hour: number) =>
      new TZDate(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), hour, 0, 0, timeZone);
    return { opensAt: new Date(at(10).getTime()), closesAt: new Date(at(weekday === 5 || weekday === 6 ? 23 : 22).getTime()) };
  });
}

/** The product of the demo's Gold season pass (10000010), which needs a visit reservation. */
export const DEMO_RESERVED_PRODUCT = 'Gold Season Pass';

/**
 * The demo's entry windows: three a day (10:00, 12:00 and 14:00, two hours each) from today
 * for 14 days, 150 passholders each; the sixth day is blocked out for the Gold season pass.
 */
function demoVisits(today: string, timeZone: string): Pick<DemoConfiguration, 'visitWindows' | 'visitProducts' | 'visitBlockouts'> {
  const visitWindows = Array.from({ length: 14 }, (_, i) => shiftDate(today, i)).flatMap((day) =>
    [10, 12, 14].map((hour) => {
      const at = (h: number) =>
        new Date(new TZDate(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), h, 0, 0, timeZone).getTime());
      return { startsAt: at(hour), endsAt: at(hour + 2), capacity: 150 };
    }),
  );
  return {
    visitWindows,
    visitProducts: [{ product: DEMO_RESERVED_PRODUCT }],
    visitBlockouts: [{ day: shiftDate(today, 5), product: DEMO_RESERVED_PRODUCT }],
  };
}

/** What the back office would hold for the demo orders (see the README table), the park hours around `today`. */
export function demoConfiguration(today: string, timeZone: string): DemoConfiguration {
  return {
    parkHours: demoParkHours(today, timeZone),
    ...demoVisits(today, timeZone),
    parkLocations: [
      {
        name: 'Main Gate',
        latitude: 34.0094,
        longitude: -118.4973,
        relevantText: 'Welcome! Have your pass ready at the Main Gate.',
        relevantTextEs: '¡Le damos la bienvenida! Tenga su pase listo en la Entrada Principal.',
      },
      {
        name: 'Pier Entrance',
        latitude: 34.0087,
        longitude: -118.4988,
        relevantText: 'Show your pass at the Pier Entrance.',
        relevantTextEs: 'Muestre su pase en la Entrada del Muelle.',
      },
      {
        name: 'Guest Services',
        latitude: 34.0091,
        longitude: -118.4979,
        relevantText: 'Guest Services can help with your pass.',
        relevantTextEs: 'Atención al Visitante puede ayudarle con su pase.',
      },
    ],
    passCustomizations: [
      {
        name: 'Season Pass',
        backgroundColor: '0b3d91',
        color: 'ffffff',
        instructions: 'Show this pass with a photo ID at the gate. Season passes are not transferable.',
        googleInstructions: 'Show this pass with a photo ID at the gate.',
        instructionsEs: 'Muestre este pase con una identificación con foto en la entrada. Los pases de temporada son intransferibles.',
        googleInstructionsEs: 'Muestre este pase con una identificación con foto en la entrada.',
      },
      {
        name: 'Day Ticket',
        backgroundColor: '7b2cbf',
        color: 'ffd60a',
        instructions: 'Scan this ticket at the gate. Valid for one visit.',
        instructionsEs: 'Escanee este boleto en la entrada. Válido para una visita.',
      },
      {
        name: 'Stored Value',
        backgroundColor: '2a9d8f',
        color: 'ffffff',
        instructions: 'Tap or scan at rides and games to use your credits.',
      },
    ],
    passCustomizationCategories: [
      { categoryId: '12', customizationName: 'Season Pass' },
      { categoryId: '20', customizationName: 'Day Ticket' },
      { categoryId: '30', customizationName: 'Stored Value' },
    ],
    testPasses: [
      {
        barcode: '99000001',
        description: 'Gate scanner test pass',
        data: JSON.stringify({ firstName: 'Test', lastName: 'Guest', product: 'Test Season Pass', category: 'Season Pass', credits: 5 }),
      },
    ],
    walletExceptions: [{ orderNumber: '10000008', skipRegistration: true, skipImage: true }],
    walletItemExclusions: [
      {
        merchItemId: '9444',
        customError: 'Partner vouchers cannot be added to a digital wallet. Please bring your printed voucher to the gate.',
        customErrorEs:
          'Los comprobantes de socios comerciales no se pueden agregar a una billetera digital. Traiga su comprobante impreso a la entrada.',
        validFrom: new Date('2025-01-01T00:00:00-08:00'),
        active: true,
      },
    ],
    wristbandMerchPackIds: [{ merchItemId: '770', active: true, validFrom: new Date('2025-01-01T00:00:00-08:00') }],
    ticketShares: [
      {
        barcode: STORED_VALUE_BARCODE,
        hashUrlHash: hashSecret(DEMO_SHARE_LINKS.active),
        firstName: 'Rosa',
        lastName: 'Diaz',
        email: 'rosa.diaz@example.com',
        phone: '3105550142',
      },
      {
        barcode: STORED_VALUE_BARCODE,
        hashUrlHash: hashSecret(DEMO_SHARE_LINKS.stopped),
        firstName: 'Sam',
        lastName: 'Diaz',
        email: 'sam.diaz@example.com',
        removedAt: new Date('2026-11-01T12:00:00-08:00'),
      },
    ],
  };
}

// ---- Today's usage ----------------------------------------------------------------------
// demo-data.json is static, but the stored-value page shows only today's operating day
// (from 2:00 AM park time). So its usage events are written on a reference operating day,
// 2026-01-01 from 2:00 AM (-08:00), and moved onto today's operating day at load time:
// at the same clock times when all of them have already passed, otherwise spread in the
// same order and proportions over the part of today that has passed. None is in the future.

const REFERENCE_DAY_START = Date.parse('2026-01-01T02:00:00-08:00');
const DAY_MS = 24 * 60 * 60 * 1000;

/** The usage events moved from the reference day onto today's operating day (see above). */
export function shiftUsageToToday(usage: unknown[], now: Date, timeZone: string): unknown[] {
  const start = operatingDayStart(now, timeZone).getTime();
  const elapsed = now.getTime() - start;
  const offsets = usage.map((e) => Date.parse((e as { timestamp: string }).timestamp) - REFERENCE_DAY_START);
  const keepClock = offsets.every((o) => o <= elapsed);
  return usage.map((e, i) => {
    const offset = offsets[i]!;
    const at = keepClock ? start + offset : start + Math.floor((offset / DAY_MS) * elapsed);
    return { ...(e as object), timestamp: new Date(at).toISOString() };
  });
}

// ---- Dates relative to today ---------------------------------------------------------------
// The orders, checks and reservations are written as of the operating day DATA_WRITTEN_ON and
// moved by whole days onto today's (or DEMO_TODAY's), at the same park clock times: the demo
// never ages out of the 90-day loyalty claim window, and expiries stay as far ahead.

const DATA_WRITTEN_ON = '2026-11-21';

type Dated = Record<string, unknown>;
const INSTANTS = ['orderDate', 'expires', 'redeemed'];
const CALENDAR_DATES = ['arrival', 'departure', 'visitDate'];

function shiftRecord(record: unknown, days: number, timeZone: string): Dated {
  const out: Dated = { ...(record as Dated) };
  for (const key of INSTANTS) if (typeof out[key] === 'string') out[key] = shiftInstant(out[key], days, timeZone);
  for (const key of CALENDAR_DATES) if (typeof out[key] === 'string') out[key] = shiftDate(out[key], days);
  if (Array.isArray(out.tickets)) out.tickets = out.tickets.map((ticket) => shiftRecord(ticket, days, timeZone));
  return out;
}

/** The demo's orders (and tickets), checks and reservations as of `today` (YYYY-MM-DD in the park). */
export function shiftDemoDates(data: ImportFile, today: string, timeZone: string): ImportFile {
  const days = daysBetween(DATA_WRITTEN_ON, today);
  if (days === 0) return data;
  const shiftAll = (records: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(records).map(([k, v]) => [k, shiftRecord(v, days, timeZone)]));
  return { ...data, orders: shiftAll(data.orders), checks: shiftAll(data.checks), reservations: shiftAll(data.reservations) };
}

export interface DemoLoad {
  report: IngestReport;
  configuration: Record<keyof DemoConfiguration, number>;
  /** Null when the history was left out (DEMO_HISTORY=false). */
  history: HistoryReport | null;
}

/** Loads the demo data unless the database already holds orders; null when it did not. */
export async function loadDemoData(opts: {
  db: Executor;
  changes: ChangeBus;
  parkTimezone: string;
  now?: Date;
  /** The operating day the dates are placed around (DEMO_TODAY); default today's. */
  today?: string | undefined;
  /** What the 90 days of loyalty history are written with (demo-history.service.ts); null: no history. */
  history: Omit<HistoryDeps, 'changes'> | null;
}): Promise<DemoLoad | null> {
  const now = opts.now ?? new Date();
  const today = opts.today ?? operatingDay(now, opts.parkTimezone);
  const data = shiftDemoDates(JSON.parse(await readFile(demoDataFile, 'utf8')) as ImportFile, today, opts.parkTimezone);
  data.usage = shiftUsageToToday(data.usage, now, opts.parkTimezone);
  const configuration = demoConfiguration(today, opts.parkTimezone);

  return opts.db.transaction(async (tx) => {
    await lockDemoLoad(tx);
    if (await hasOrders(tx)) return null;
    const report = await ingestRecords({ db: tx, changes: opts.changes, data });
    if (report.errors.length > 0) {
      const lines = report.errors.map((e) => `${e.record} ${e.field}: ${e.message}`);
      throw new Error(`The demo data is not valid:\n${lines.join('\n')}`);
    }
    await insertDemoConfiguration(tx, configuration);
    const counts = Object.fromEntries(Object.entries(configuration).map(([k, rows]) => [k, rows.length]));
    const history = opts.history && (await loadHistory(tx, { ...opts.history, changes: opts.changes }, today, now));
    return { report, configuration: counts as DemoLoad['configuration'], history };
  });
}
