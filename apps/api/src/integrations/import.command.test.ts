import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadPglite, pgliteFolder } from '@boardwalk/db/backup';
import { createDb } from '@boardwalk/db/client';
import { pgliteTemplateTarball } from '@boardwalk/db/test-support/test-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, publishedTicketChanges, type TestApp } from '../../test-support/test-app.ts';
import { importFromFile } from './import.command.ts';
import { feedTablesFingerprint, snapshotFeedTables } from '../../test-support/integration-tables.fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const command = fileURLToPath(new URL('../import.ts', import.meta.url));

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(join(tmpdir(), 'bw-import-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, content: unknown) {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const validFile = {
  orders: {
    '81000001': anOrder([{ barcode: '8100000000000016' }, { barcode: '8100000000000023' }]),
    '81000002': anOrder([{ barcode: '8100000000000030', category: 'Stored Value Card', credits: 20 }]),
  },
  checks: {
    'FB07-1': { checkNumber: '4012', orderDate: '2026-11-21T12:30:00-08:00', terminalId: 'FB-07', total: 23.5 },
    'FB02-1': { checkNumber: '4012', orderDate: '2026-11-22T12:30:00-08:00', terminalId: 'FB-02', total: 9 },
  },
  reservations: { H1: { arrival: '2026-12-01', departure: '2026-12-03', total: 412 } },
  usage: [
    { barcode: '8100000000000030', attraction: 'Sea Dragon', location: 'West Pier', timestamp: '2026-11-21T11:02:09-08:00' },
    { barcode: '8100000000000030', attraction: 'Carousel', location: 'Main Pier', timestamp: '2026-11-21T11:32:09-08:00' },
  ],
};

describe('importFromFile', () => {
  it('imports every kind, then reports the same file as unchanged', async () => {
    const path = await fileWith('valid.json', validFile);
    const first = await importFromFile({ db: t.database.db, changes: t.app.jobs, file: path });
    expect(first.exitCode).toBe(0);
    expect(first.report).toEqual({
      orders: { created: 2, replaced: 0, unchanged: 0 },
      checks: { created: 2, replaced: 0, unchanged: 0 },
      reservations: { created: 1, replaced: 0, unchanged: 0 },
      usage: { accepted: 2, duplicates: 0 },
      errors: [],
    });
    expect(first.lines.join('\n')).toContain('orders:       2 created, 0 replaced, 0 unchanged');
    // What the import wrote is what the API answers.
    const held = await t.app.inject({ method: 'GET', url: '/api/integrations/orders/81000001', headers: integrationAuth });
    expect(held.json().tickets.map((x: { barcode: string }) => x.barcode)).toEqual(['8100000000000016', '8100000000000023']);

    const before = await feedTablesFingerprint(t.database.db);
    const second = await importFromFile({ db: t.database.db, changes: t.app.jobs, file: path });
    expect(second.report).toMatchObject({
      orders: { created: 0, replaced: 0, unchanged: 2 },
      checks: { created: 0, replaced: 0, unchanged: 2 },
      reservations: { created: 0, replaced: 0, unchanged: 1 },
      usage: { accepted: 0, duplicates: 2 },
    });
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it('counts replaced records, and publishes their tickets like the feed (wallet passes follow)', async () => {
    const published = publishedTicketChanges(t.database);
    await published.reset();
    const changed = { orders: { '81000002': anOrder([{ barcode: '8100000000000030', category: 'Stored Value Card', credits: 15 }]) } };
    const result = await importFromFile({
      db: t.database.db,
      changes: t.app.jobs,
      file: await fileWith('changed.json', changed),
    });
    expect(result.report.orders).toEqual({ created: 0, replaced: 1, unchanged: 0 });
    expect(await published.barcodes()).toEqual(['8100000000000030']);
    // Unchanged on a second import: nothing published.
    await published.reset();
    await importFromFile({ db: t.database.db, changes: t.app.jobs, file: await fileWith('changed.json', changed) });
    expect(await published.barcodes()).toEqual([]);
  });

  it('writes nothing and names each bad record and field when anything is invalid', async () => {
    const before = await feedTablesFingerprint(t.database.db);
    const bad = {
      orders: {
        '81000003': anOrder([{ barcode: '8100000000000047' }]),
        '8100': anOrder([{ barcode: '8100000000000054' }]),
        '81000004': { ...anOrder([{ barcode: '8100000000000061', holder: { email: 'nope' } }]), note: 'x' },
      },
      checks: { 'FB07-9': { checkNumber: '4012', orderDate: 'today', terminalId: 'FB-07', total: 1 } },
      usage: [validFile.usage[0], { ...validFile.usage[1], barcode: '1' }],
    };
    const result = await importFromFile({ db: t.database.db, changes: t.app.jobs, file: await fileWith('bad.json', bad) });
    expect(result.exitCode).toBe(1);
    expect(result.report.errors).toEqual([
      { record: 'orders.8100', field: 'orderId', message: 'Order ID must be 8 digits' },
      { record: 'orders.81000004', field: 'tickets.0.holder.email', message: expect.any(String) },
      { record: 'orders.81000004', field: 'note', message: 'Unknown field' },
      { record: 'checks.FB07-9', field: 'orderDate', message: expect.any(String) },
      { record: 'usage[1]', field: 'barcode', message: 'Barcode must be 8 to 18 digits' },
    ]);
    expect(result.report.orders).toEqual({ created: 0, replaced: 0, unchanged: 0 });
    expect(result.lines[0]).toContain('not imported, 5 errors (nothing was written)');
    expect(result.lines).toContain('  orders.81000004 tickets.0.holder.email: Must be an email address');
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it('rolls the whole file back when a record conflicts with data already held', async () => {
    const before = await feedTablesFingerprint(t.database.db);
    const conflicting = {
      orders: {
        '81000005': anOrder([{ barcode: '8100000000000078' }]),
        '81000006': anOrder([{ barcode: '8100000000000016' }]),
      },
      checks: { 'FB07-10': validFile.checks['FB07-1'] },
    };
    const result = await importFromFile({
      db: t.database.db,
      changes: t.app.jobs,
      file: await fileWith('conflict.json', conflicting),
    });
    expect(result.exitCode).toBe(1);
    expect(result.report.errors).toEqual([
      { record: 'orders.81000006', field: 'tickets.0.barcode', message: 'Barcode 8100000000000016 belongs to order 81000001' },
    ]);
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it('refuses a file that is not JSON, not an import file, or missing', async () => {
    const before = await feedTablesFingerprint(t.database.db);
    const notJson = await importFromFile({
      db: t.database.db,
      changes: t.app.jobs,
      file: await fileWith('broken.json', '{"orders": {'),
    });
    expect([notJson.exitCode, notJson.report.errors[0]?.message]).toEqual([1, expect.stringContaining('not valid JSON')]);
    const wrongShape = await importFromFile({
      db: t.database.db,
      changes: t.app.jobs,
      file: await fileWith('shape.json', { orders: [], tickets: {} }),
    });
    expect(wrongShape.exitCode).toBe(1);
    expect(wrongShape.report.errors.map((e) => e.field)).toEqual(['orders', 'tickets']);
    const missing = await importFromFile({ db: t.database.db, changes: t.app.jobs, file: join(dir, 'missing.json') });
    expect([missing.exitCode, missing.report.errors[0]?.message]).toEqual([1, expect.stringContaining('cannot be read')]);
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it('takes more usage events than one API call (they are written in batches)', async () => {
    const usage = Array.from({ length: 1500 }, (_, i) => ({
      barcode: '8100000000000030',
      attraction: 'Sea Dragon',
      location: 'West Pier',
      timestamp: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    }));
    const result = await importFromFile({
      db: t.database.db,
      changes: t.app.jobs,
      file: await fileWith('usage.json', { usage }),
    });
    expect(result.report.usage).toEqual({ accepted: 1500, duplicates: 0 });
  });
});

describe('npm run import (the command)', () => {
  const run = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', command, ...args], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', DATABASE_URL: '', ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('imports a file into the database of DATA_DIR and exits 0; invalid data exits 1; misuse exits 2', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bw-import-data-'));
    try {
      // A migrated embedded database (a copy of the run's template, when it has one): a first
      // start's migrations took most of this test (server.test.ts starts on an empty folder).
      const template = pgliteTemplateTarball();
      if (template) await loadPglite(pgliteFolder(dataDir), template);
      const ok = await run([await fileWith('cli.json', validFile)], { DATA_DIR: dataDir });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('imported');
      expect(ok.stdout).toContain('usage:        2 accepted, 0 duplicates');

      const bad = await run([await fileWith('cli-bad.json', { orders: { '1': {} } })], { DATA_DIR: dataDir });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('orders.1 orderId: Order ID must be 8 digits');

      expect((await run([], { DATA_DIR: dataDir })).code).toBe(2);

      const database = await createDb({ dataDir });
      try {
        const rows = await snapshotFeedTables(database.db);
        expect(rows.orders.map((o) => o.orderId).sort()).toEqual(['81000001', '81000002']);
        expect(rows.tickets).toHaveLength(3);
        expect(rows.checks).toHaveLength(2);
        expect(rows.reservations).toHaveLength(1);
        expect(rows.attractionUsage).toHaveLength(2);
      } finally {
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // Three processes, each opening an on-disk PGlite and (for the first two) its job queue; the
    // first migrates it when the run has no PGlite template (the postgres project).
  }, 120_000);
});
