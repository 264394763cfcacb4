// npm run bench:photo: the photo preview of a 4000 x 3000 JPEG of about 5 MB (a photo-like
// picture: gradients, soft shapes and sensor noise, at the highest JPEG quality that stays
// within the 5242880-byte limit), cropped to the face-check fallback (90% of the image, 4:3)
// and answered as the 480 x 360 BMP. One preview at a time, three ways:
//   - image: photo-image.ts previewBmp alone (sniff, header check, decode, crop, scale, BMP);
//   - service: photo.service.ts previewPhoto (plus base64 decoding and the throttled ticket lookup);
//   - HTTP: POST /api/preview/ over loopback to the app listening on 127.0.0.1 (JSON body of ~7 MB).
// Prints the median, p90, previews per second and CPU time per preview of each. Goal (issue 4): median <= 150 ms.
//
//   BENCH_SECONDS=5      seconds of measurement per way (after 1 s of warm-up)
//   BENCH_DB=pglite      database: pglite or postgres
//   TEST_DATABASE_URL    PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { cpus, loadavg } from 'node:os';
import sharp from 'sharp';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '@boardwalk/db/test-support/test-database';
import { MAX_PHOTO_BYTES, type PreviewRequest } from '@boardwalk/contract/photo';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { previewBmp } from '../apps/api/src/guest/photo/photo-image.ts';
import { previewPhoto, type PhotoDeps } from '../apps/api/src/guest/photo/photo.service.ts';
import { aJpegNear, dataUrl } from '../apps/api/test-support/photo.fixtures.ts';
import { fmt, measureSequential, positiveNumber } from './bench-support.ts';

const ORDER_ID = '40000001';
const BARCODE = '4000000000000011';
const INTEGRATION_KEY = 'bench-photo-secret-0123456789';
const GOAL_MEDIAN_MS = 150;
const seconds = positiveNumber('BENCH_SECONDS', 5);
const kind = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'pglite';

const BMP_BYTES = 518454; // a 480 x 360 24-bit BMP
const measure = (name: string, once: () => Promise<number>) =>
  measureSequential(name, seconds, once, (size) => {
    if (size !== BMP_BYTES) throw new Error(`${name}: expected a 480 x 360 BMP (${BMP_BYTES} bytes), got ${size}`);
  });

const t0 = performance.now();
const jpeg = await aJpegNear(4000, 3000, MAX_PHOTO_BYTES);
console.log(`source: 4000 x 3000 JPEG, ${fmt(jpeg.length)} bytes (made in ${fmt(performance.now() - t0)} ms)`);
const crop = { x: 200, y: 150, width: 3600, height: 2700 };
const request: PreviewRequest = {
  filename: 'photo.jpg',
  filesize: jpeg.length,
  filetype: 'image/jpeg',
  data: dataUrl('image/jpeg', jpeg),
  crop,
  orderId: ORDER_ID,
  barcode: BARCODE,
};

const database = await createTestDatabase(kind);
const app = await buildApp({
  config: loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'bench admin password',
    INTEGRATION_API_KEYS: `bench:${INTEGRATION_KEY}`,
  }),
  database,
  logger: false,
});
try {
  const put = await app.inject({
    method: 'PUT',
    url: `/api/integrations/orders/${ORDER_ID}`,
    headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
    payload: {
      orderDate: '2026-11-20T18:15:00Z',
      purchaser: { firstName: 'Ana', lastName: 'Lopez' },
      tickets: [
        {
          barcode: BARCODE,
          product: 'Season Pass',
          price: 199,
          isPassholder: true,
          holder: { firstName: 'Ana', lastName: 'Lopez' },
          credits: 0,
          cash: 0,
          refunded: false,
          isPassActivated: false,
        },
      ],
    },
  });
  if (put.statusCode >= 300) throw new Error(`seeding failed: ${put.statusCode} ${put.body}`);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/preview/`;
  const body = JSON.stringify(request);
  const deps: PhotoDeps = {
    db: app.database.db,
    tickets: app.tickets,
    throttles: app.lookupThrottles,
    changes: app.jobs,
    mailer: app.mailer,
    teamEmail: app.config.teamEmail,
    log: app.log,
  };

  console.log(
    `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]!.toFixed(2)}, ${kind}, ${seconds} s per way\n`,
  );
  const results = [
    // Baseline: the least any preview must do, sharp's own crop and scale of the same JPEG.
    await measure(
      'baseline: bare sharp',
      async () =>
        // Raw RGB pixels plus the 54-byte BMP header: the size every way must answer.
        (await sharp(jpeg).extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height }).resize(480, 360).raw().toBuffer())
          .length + 54,
    ),
    await measure('image (previewBmp)', async () => (await previewBmp(jpeg, crop)).length),
    await measure('service (previewPhoto)', async () => (await previewPhoto(deps, { clientAddress: '127.0.0.1', ...request })).size),
    await measure('HTTP POST /api/preview/', async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { size: number }).size;
    }),
  ];
  console.log('way                        count   per second   median ms   p90 ms   min ms   CPU ms');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(26)} ${fmt(r.count).padStart(5)} ${fmt(r.perSecond, 1).padStart(12)} ${fmt(r.median, 1).padStart(11)} ${fmt(r.p90, 1).padStart(8)} ${fmt(r.min, 1).padStart(8)} ${fmt(r.cpu, 1).padStart(8)}`,
    );
  }
  const http = results[3]!;
  console.log(`\nratio HTTP / bare sharp (median): ${fmt(http.median / results[0]!.median, 2)}x`);
  console.log(
    `goal: median <= ${GOAL_MEDIAN_MS} ms through HTTP: ${http.median <= GOAL_MEDIAN_MS ? 'met' : 'NOT met'} (${fmt(http.median, 1)} ms)`,
  );
} finally {
  await app.close();
  await database.close();
}
