// npm run bench:enumeration: does a failed lookup tell an unknown order from a wrong barcode by
// its timing? (Both must answer the same status, body and timing.) Interleaves the two kinds of
// miss on the real app (in-process, inject) on PGlite and PostgreSQL and prints each one's
// median and p90 and the ratio wrong barcode / unknown order. Each miss comes from its own
// client address and each order id is missed at most 4 times, so the throttle never answers 429
// and both kinds do the same throttle work.
//
//   BENCH_SAMPLES=600   misses of each kind per database
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 600);
const KEY = `bench-${randomBytes(12).toString('hex')}`;
const ORDERS = Math.ceil(SAMPLES / 4);

const orderId = (i: number) => String(60000000 + i);
const barcode = (i: number) => String(6000000000000000 + i * 10);

async function measure(kind: 'pglite' | 'postgres') {
  const database = await createTestDatabase(kind, 10);
  const app = await buildApp({
    config: loadConfig({
      DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'bench admin password',
      INTEGRATION_API_KEYS: `bench:${KEY}`,
    }),
    database,
    logger: false,
  });
  try {
    for (let i = 0; i < ORDERS; i++) {
      const res = await app.inject({
        method: 'PUT',
        url: `/api/integrations/orders/${orderId(i)}`,
        headers: { authorization: `Bearer ${KEY}` },
        payload: {
          orderDate: '2026-11-20T18:15:00Z',
          tickets: [{ barcode: barcode(i), product: 'Day Ticket', holder: { firstName: 'A', lastName: 'B' } }],
        },
      });
      if (res.statusCode !== 201) throw new Error(`seed ${res.statusCode} ${res.body}`);
    }
    const times = { unknownOrder: [] as number[], wrongBarcode: [] as number[] };
    let address = 0;
    const miss = async (body: object) => {
      const remoteAddress = `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
      const start = process.hrtime.bigint();
      const res = await app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 404) throw new Error(`expected 404, got ${res.statusCode}`);
      return { ms, body: res.body };
    };
    // Warm-up, then alternate the two kinds so drift affects both alike.
    for (let i = 0; i < 50; i++) await miss({ orderId: orderId(ORDERS + 10_000 + i), barcode: barcode(i) });
    let bodies = new Set<string>();
    for (let i = 0; i < SAMPLES; i++) {
      const wrong = await miss({ orderId: orderId(i % ORDERS), barcode: String(7000000000000000 + i) });
      const unknown = await miss({ orderId: orderId(ORDERS + 20_000 + i), barcode: barcode(i % ORDERS) });
      times.wrongBarcode.push(wrong.ms);
      times.unknownOrder.push(unknown.ms);
      bodies = new Set([...bodies, wrong.body, unknown.body]);
    }
    return { kind, times, distinctBodies: bodies.size };
  } finally {
    await app.close();
    await database.close();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const fmt = (ms: number) => ms.toFixed(3).padStart(7);

console.log(`bench:enumeration, ${SAMPLES} misses of each kind per database, interleaved, Node ${process.version}`);
for (const kind of ['postgres', 'pglite'] as const) {
  const r = await measure(kind).catch((error: Error) => {
    if (kind === 'postgres' && /ECONNREFUSED/.test(String(error))) {
      console.log('PostgreSQL unreachable: skipped');
      return null;
    }
    throw error;
  });
  if (!r) continue;
  const u = r.times.unknownOrder;
  const w = r.times.wrongBarcode;
  console.log(`${kind}:`);
  console.log(`  unknown order   median ${fmt(quantile(u, 0.5))} ms  p90 ${fmt(quantile(u, 0.9))} ms`);
  console.log(`  wrong barcode   median ${fmt(quantile(w, 0.5))} ms  p90 ${fmt(quantile(w, 0.9))} ms`);
  console.log(
    `  ratio wrong barcode / unknown order: median ${(quantile(w, 0.5) / quantile(u, 0.5)).toFixed(3)}, p90 ${(quantile(w, 0.9) / quantile(u, 0.9)).toFixed(3)}; distinct answer bodies: ${r.distinctBodies}`,
  );
}
