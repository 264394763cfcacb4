// npm run bench:google-callbacks: Google Wallet's save and delete callbacks
// (POST /api/google-wallet/callbacks), each a new nonce for a saved ticket's object, signed
// beforehand with the bench's own root and intermediate keys, through HTTP one request at a
// time; and the same message sent again (a duplicate). Beside, in the same process: the
// verification alone (no HTTP, no database), two bare ECDSA P-256 verifies (what verification
// must at least cost: the root's signature of the intermediate key, the intermediate's of the
// message), and GET /healthz on the same server (HTTP alone). Median, p99, calls per second
// and the ratios. Exits non-zero when an answer is wrong.
//
//   BENCH_SECONDS=5        seconds per kind (after a 1 s warm-up)
//   BENCH_DB=pglite        one database only (pglite or postgres); default both when PostgreSQL answers
//   TEST_DATABASE_URL      PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { sign, verify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { verifyCallback } from '../apps/api/src/wallet/google/google-wallet-callbacks.ts';
import { DEVELOPMENT_ISSUER_ID } from '../apps/api/src/wallet/google/google-wallet-credentials.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { GoogleCallbackSigner } from '../apps/api/test-support/google-callbacks-double.ts';
import {
  fmt,
  measureSequential,
  positiveNumber,
  type Measurement,
  benchHeader,
  databaseKinds,
  type DatabaseKind,
} from './bench-support.ts';

const seconds = positiveNumber('BENCH_SECONDS', 5);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const failures: string[] = [];

/** Bodies signed before the clock starts: signing is Google's work, not Boardwalk's. */
function signedBodies(signer: GoogleCallbackSigner, objectId: string, count: number): string[] {
  return Array.from({ length: count }, () => JSON.stringify(signer.sign(signer.message(objectId, 'save'))));
}

async function benchDatabase(kind: DatabaseKind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-callbacks-'));
  const signer = new GoogleCallbackSigner(DEVELOPMENT_ISSUER_ID);
  const keysFile = join(dataDir, 'root-keys.json');
  writeFileSync(keysFile, signer.keysDocument());
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench admin password',
    GOOGLE_WALLET_ROOT_KEYS: keysFile,
  });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-callbacks-${process.pid}` });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const objectId = `${DEVELOPMENT_ISSUER_ID}.00000000-0000-4000-8000-000000000001`;
    // Enough new nonces for the warm-up and the run at well above the rate seen here.
    const bodies = signedBodies(signer, objectId, Math.ceil((seconds + 1) * 3000));
    let next = 0;
    const post = async (body: string, expected: string) => {
      const res = await fetch(`${base}/api/google-wallet/callbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const answer = (await res.json()) as { outcome?: string };
      if (res.status !== 200 || answer.outcome !== expected) {
        const problem = `callback: ${res.status} ${JSON.stringify(answer)} (expected ${expected})`;
        failures.push(problem);
        throw new Error(problem);
      }
    };
    const accepted = () => {
      const body = bodies[next++];
      if (!body) throw new Error('out of signed bodies: raise the count');
      return post(body, 'accepted');
    };
    const duplicateBody = bodies[bodies.length - 1]!;
    await post(duplicateBody, 'accepted');
    const duplicate = () => post(duplicateBody, 'duplicate');
    const health = async () => {
      const res = await fetch(`${base}/healthz`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/healthz ${res.status}`);
    };
    const rootKeys = { current: async () => [{ key: signer.root.publicKey, expiresAt: Date.now() + 3_600_000 }] };
    const parsed = JSON.parse(duplicateBody) as unknown;
    const verifyOnly = async () => {
      await verifyCallback(parsed, { rootKeys, recipientId: DEVELOPMENT_ISSUER_ID });
    };
    const data = Buffer.from('x'.repeat(200));
    const signature = sign('sha256', data, signer.intermediate.privateKey);
    const twoVerifies = async () => {
      for (let i = 0; i < 2; i++)
        if (!verify('sha256', data, signer.intermediate.publicKey, signature)) throw new Error('bare verify failed');
    };

    console.log(`\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}; load average ${fmt(loadavg()[0] ?? 0, 2)}`);
    const results: Measurement[] = [];
    for (const [name, once] of [
      ['2 bare ECDSA verifies', twoVerifies],
      ['verification alone', verifyOnly],
      ['GET /healthz', health],
      ['callback (new nonce)', accepted],
      ['callback (duplicate)', duplicate],
    ] as const) {
      results.push(await measureSequential(name, seconds, once, () => undefined));
    }
    const [bareVerify, verification, healthz] = results;
    for (const r of results) {
      const ratio =
        r === verification
          ? `  x${fmt(r.median / bareVerify!.median, 1)} of 2 bare verifies`
          : r.name.startsWith('callback')
            ? `  x${fmt(r.median / healthz!.median, 1)} of /healthz`
            : '';
      console.log(
        `  ${r.name.padEnd(22)} median ${fmt(r.median, 3).padStart(7)} ms  p99 ${fmt(r.p99, 3).padStart(7)} ms  ${fmt(r.perSecond).padStart(6)}/s  (${fmt(r.count)} calls)${ratio}`,
      );
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const kinds = await databaseKinds(adminUrl);
  console.log(
    benchHeader(
      'bench:google-callbacks',
      `POST /api/google-wallet/callbacks one request at a time through HTTP (server and client in one process), ${seconds} s per kind`,
    ),
  );
  for (const kind of kinds) await benchDatabase(kind);
  if (failures.length > 0) {
    console.log(`RUN FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
