// Browser tests run against the real thing: the built web app served by the real server,
// started here with a fresh database in a temp folder and the demo data (README "Demo data").
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { makeDataFolder, startServerProcess } from './support/server-process.ts';
import { E2E_DELIVERY_ENV, E2E_FAILING_PUSH_TOKEN_PREFIX, E2E_INTEGRATION_KEY, STAFF_ADMIN } from './support/staff-admin.ts';
import { startApnsDouble } from '../apps/api/test-support/apns-double.ts';
import { buildApiIfStale, newestMtime } from '../apps/api/test-support/compiled-api.ts';
import { newRootKeyPem, rootKeyPair, rootKeysDocument } from '../apps/api/test-support/google-callbacks-double.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Where the servers under test listen, e.g. http://127.0.0.1:41234: one per browser worker,
     * so the files that run side by side never share a database (browser.ts baseUrl).
     */
    baseUrls: string[];
    /** The root key (PKCS #8 PEM) the servers trust as Google's for Wallet callbacks (GOOGLE_WALLET_ROOT_KEYS). */
    googleRootKey: string;
    /** When the servers started (ms): the demo data, today's usage included, was loaded after it. */
    serversStartedAt: number;
    /**
     * A data folder with the demo data and the first administrator (STAFF_ADMIN): every server
     * of the run starts on a copy of it (startServerProcess dataFrom), but the demo history's.
     */
    demoDataFolder: string;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const builtIndex = join(web, 'dist/index.html');
const builtReport = join(web, 'dist/bundle-size.json');

function buildWebIfStale() {
  const sources = [
    join(web, 'src'),
    join(web, 'public'),
    join(web, 'index.html'),
    join(web, 'vite.config.ts'),
    join(web, 'package.json'),
    join(root, 'packages/contract/src'),
  ];
  const built =
    existsSync(builtIndex) && existsSync(builtReport) ? Math.min(statSync(builtIndex).mtimeMs, statSync(builtReport).mtimeMs) : 0;
  if (built > newestMtime(sources)) return;
  console.log('[e2e] building the web app (apps/web/dist is missing or older than its sources)');
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const result = spawnSync('npm', ['run', 'build', '-w', '@boardwalk/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`npm run build -w @boardwalk/web failed with status ${result.status}`);
}

export default async function setup(project: TestProject) {
  buildWebIfStale();
  buildApiIfStale();
  const runDir = await mkdtemp(join(tmpdir(), 'bw-e2e-'));
  // APNs: accepts pushes, except to the failing tokens (a dead delivery for the Deliveries tab).
  const apns = await startApnsDouble(runDir, (token) =>
    token.startsWith(E2E_FAILING_PUSH_TOKEN_PREFIX) ? { status: 500, reason: 'InternalServerError' } : { status: 200 },
  );
  const closeApns = () => new Promise<void>((resolve) => apns.server.close(() => resolve())).then(() => rm(runDir, { recursive: true }));
  // Google's root key for Wallet callbacks is the run's own: the tests sign callbacks with it.
  const googleRootKey = newRootKeyPem();
  const rootKeysFile = join(runDir, 'google-root-keys.json');
  await writeFile(rootKeysFile, rootKeysDocument(rootKeyPair(googleRootKey).publicKey));
  const serversStartedAt = Date.now();
  const admin = { ADMIN_EMAIL: STAFF_ADMIN.email, ADMIN_PASSWORD: STAFF_ADMIN.password };
  const data = await makeDataFolder(admin).catch(async (error: unknown) => {
    await closeApns();
    throw error;
  });
  // One server per worker: a browser test file changes the demo data and the throttle counters
  // of its server, as it did when the files ran one at a time.
  const started = await Promise.allSettled(
    Array.from({ length: project.config.maxWorkers }, () =>
      startServerProcess(
        {
          // The first administrator the staff tests log in with (e2e/support/staff.ts).
          ...admin,
          INTEGRATION_API_KEYS: `e2e:${E2E_INTEGRATION_KEY}`,
          // Chromium reaches the server from the loopback: a test may name the guest's address
          // (X-Forwarded-For) so its throttle counters are its own (openGuestPage clientAddress).
          TRUST_PROXY: '127.0.0.1',
          ...E2E_DELIVERY_ENV,
          APNS_URL: apns.url,
          APNS_CA_FILE: apns.caFile,
          GOOGLE_WALLET_ROOT_KEYS: rootKeysFile,
        },
        { echoErrors: true, dataFrom: data.dir },
      ),
    ),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const closeAll = async () => {
    await Promise.all(servers.map((server) => server.close()));
    data.remove();
    await closeApns();
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await closeAll();
    throw failed.reason;
  }
  project.provide(
    'baseUrls',
    servers.map((server) => server.baseUrl),
  );
  project.provide('googleRootKey', googleRootKey);
  project.provide('serversStartedAt', serversStartedAt);
  project.provide('demoDataFolder', data.dir);
  return closeAll;
}
