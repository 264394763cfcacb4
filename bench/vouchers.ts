// npm run bench:vouchers: PDF vouchers per second and the median time of one, for the same
// ticket (the demo Stored Value Card: Code 128, QR code and logo), two ways, one after the
// other, one at a time:
//   - in-process: the document renderer alone (voucher.document.ts renderVoucher);
//   - route: POST /api/voucher/ through the app (app.inject: validation, throttled lookup,
//     keyed hash, rendering, headers), on a fresh database with the demo data;
// each in English and in Spanish (the route by Accept-Language), printed with Spanish / English.
// Goal (issue 3): median <= 10 ms per voucher. Exits non-zero when an answer is not a PDF.
//
//   BENCH_SECONDS=5      seconds of measurement per way (after 1 s of warm-up)
//   BENCH_DB=pglite      database of the route run: pglite or postgres
//   TEST_DATABASE_URL    PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase } from '@boardwalk/db/test-support/test-database';
import type { PassOrder } from '@boardwalk/contract/pass';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { renderVoucher } from '../apps/api/src/guest/voucher/voucher.document.ts';
import { fmt, measureSequential, positiveNumber, type Measurement } from './bench-support.ts';
import type { Language } from '@boardwalk/contract/i18n/languages';

const ORDER_ID = '10000002';
const BARCODE = '3500000000000028';

/** One voucher at a time; the answer must be a PDF. */
const measure = (name: string, seconds: number, once: () => Promise<Buffer>) =>
  measureSequential(name, seconds, once, (pdf) => {
    if (pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`${name}: the answer is not a PDF`);
  });

/** Measures both ways and prints them; resolves false when a run failed. */
export async function benchVouchers(kind: 'pglite' | 'postgres', seconds: number): Promise<boolean> {
  let ok = true;
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-'));
  const database = await createTestDatabase(kind, 10);
  const app = await buildApp({
    config: loadConfig({ DEMO_DATA: 'true', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench admin password' }),
    database,
    logger: false,
  });
  try {
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: ORDER_ID, barcode: BARCODE } });
    if (login.statusCode !== 200) throw new Error(`the demo Stored Value Card was not found (${login.statusCode}): ${login.body}`);
    const order = login.json<PassOrder>();
    const content = {
      brandName: app.config.brandName,
      order,
      photoPng: null,
      storedValueUrl: `${app.config.publicUrl}/stored-value/${app.keys.keyedHash('stored-value', BARCODE)}`,
      timeZone: app.config.parkTimezone,
    };

    const load = loadavg()[0] ?? 0;
    const route = (language: Language) =>
      measure(`route POST /api/voucher/ (inject, ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}), ${language}`, seconds, async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/voucher/',
          headers: { 'accept-language': language },
          payload: { orderId: ORDER_ID, barcode: BARCODE },
        });
        if (res.statusCode !== 200) throw new Error(`route answered ${res.statusCode}: ${res.body}`);
        return res.rawPayload;
      });
    const results = [
      await measure('in-process renderer, en', seconds, () => renderVoucher({ ...content, language: 'en' })),
      await route('en'),
      await measure('in-process renderer, es', seconds, () => renderVoucher({ ...content, language: 'es' })),
      await route('es'),
    ];

    console.log(
      `Vouchers for ${order.product} (${BARCODE}), one at a time, ${seconds} s each; ${cpus().length} CPUs, load ${fmt(load, 2)} at start`,
    );
    const columns = ['vouchers/s', 'median ms', 'p90 ms', 'min ms', 'CPU ms', 'n'];
    console.log(`${'way'.padEnd(44)} ${columns.map((c) => c.padStart(10)).join(' ')}`);
    for (const r of results) {
      const cells = [fmt(r.perSecond, 1), fmt(r.median, 2), fmt(r.p90, 2), fmt(r.min, 2), fmt(r.cpu, 2), fmt(r.count)];
      console.log(`${r.name.padEnd(44)} ${cells.map((c) => c.padStart(10)).join(' ')}`);
    }
    console.log('CPU ms: CPU time of this process per voucher (wall times include waiting for the CPU when the machine is busy).');
    const [renderer, english, spanishRenderer, spanish] = results as [Measurement, Measurement, Measurement, Measurement];
    console.log(`ratio route / in-process renderer (baseline), median: ${fmt(english.median / renderer.median, 2)}x`);
    console.log(
      `ratio Spanish / English, median: renderer ${fmt(spanishRenderer.median / renderer.median, 2)}x, route ${fmt(spanish.median / english.median, 2)}x`,
    );
    const slowest = Math.max(english.median, spanish.median);
    console.log(
      `goal median <= 10 ms per voucher: ${slowest <= 10 ? 'met' : 'NOT met'} (route ${fmt(english.median, 2)} ms en, ${fmt(spanish.median, 2)} ms es)`,
    );
  } catch (error) {
    console.error(error);
    ok = false;
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return ok;
}

// Run on its own (npm run bench:vouchers), or imported by bench/passes.ts.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ok = await benchVouchers(process.env.BENCH_DB === 'postgres' ? 'postgres' : 'pglite', positiveNumber('BENCH_SECONDS', 5));
  if (!ok) process.exitCode = 1;
}
