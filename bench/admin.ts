// npm run bench:admin: a back-office tab of 10,000 rows (Team) through HTTP with a real login
// token: page 1 in the default order, a search, and a sort on another column, one request at
// a time; median and p99 of each, beside a baseline in the same process: a bare prepared
// select of the same page on the same database (no HTTP, no session or permission check, no
// count). Goal: p99 <= 50 ms. Exits non-zero when an answer is wrong.
//
//   BENCH_SECONDS=5      seconds per kind (after a 1 s warm-up)
//   BENCH_DB=pglite      one database only (pglite or postgres); default both when PostgreSQL answers
//   BENCH_ROWS=10000     team members seeded
//   TEST_DATABASE_URL    PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { teamMembers as teamTab } from '@boardwalk/contract/staff-team-tabs';
import { teamMembers } from '@boardwalk/db/schema';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import {
  fmt,
  measureSequential,
  positiveNumber,
  type Measurement,
  benchHeader,
  databaseKinds,
  type DatabaseKind,
} from './bench-support.ts';

const GOAL_P99_MS = 50;
const PAGE_SIZE = 50;
const seconds = positiveNumber('BENCH_SECONDS', 5);
const rowCount = positiveNumber('BENCH_ROWS', 10_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const ADMIN_EMAIL = 'bench-admin@example.com';
const ADMIN_PASSWORD = 'bench admin password';
const failures: string[] = [];

/** One request at a time: a 1 s warm-up, then `seconds` of measurement. */
const sample = (name: string, once: () => Promise<void>) => measureSequential(name, seconds, once, () => undefined);

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jon', 'Kim', 'Luis'];
const LAST = ['Lopez', 'Diaz', 'Nguyen', 'Smith', 'Garcia', 'Johnson', 'Okafor', 'Rossi', 'Tanaka', 'Novak', 'Silva', 'Meyer'];

async function seed(database: TestDatabase) {
  for (let start = 0; start < rowCount; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, rowCount - start) }, (_, k) => {
      const i = start + k;
      return {
        firstName: FIRST[i % FIRST.length]!,
        lastName: `${LAST[(i * 7) % LAST.length]!}${i % 97}`,
        internalId: `E-${String(i).padStart(6, '0')}`,
        username: `member${i}@example.com`,
        // Never logged in with: any string will do.
        passwordHash: 'bench',
        description: i % 3 === 0 ? `Works the ${['pier', 'gate', 'hotel'][i % 3]!} shift` : null,
        accessLevel: i % 100,
        active: i % 11 !== 0,
      };
    });
    await database.db.insert(teamMembers).values(rows);
  }
}

async function benchDatabase(kind: DatabaseKind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-admin-'));
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-admin-${process.pid}` });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await seed(database);
    const total = rowCount + 1; // and the seeded administrator
    const login = await fetch(`${base}/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teamMemberUsername: ADMIN_EMAIL, teamMemberPassword: ADMIN_PASSWORD }),
    });
    if (login.status !== 201) throw new Error(`login answered ${login.status}: ${await login.text()}`);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}` };

    /** One GET of the tab; throws when the answer is not a full page of the expected count. */
    const get = (query: string, expectTotal?: number) => async () => {
      const res = await fetch(`${base}${teamTab.api}${query}`, { headers });
      const rows = (await res.json()) as unknown[];
      const count = Number(res.headers.get('x-total-count'));
      if (res.status !== 200 || rows.length === 0 || (expectTotal !== undefined && count !== expectTotal)) {
        const problem = `GET ${query}: ${res.status}, ${rows.length} rows, X-Total-Count ${count}`;
        failures.push(problem);
        throw new Error(problem);
      }
    };
    const terms = ['garcia', 'member12', 'E-0045', 'ines', 'okafor7'];
    let term = 0;
    const search = async () => get(`?search=${terms[term++ % terms.length]!}`)();

    // The baseline: the same first page (same order, same size) as a bare prepared select.
    const m = teamMembers;
    const page = database.db
      .select()
      .from(m)
      .orderBy(sql`lower(${m.lastName}) collate "C"`, sql`${m.lastName} collate "C"`, m.guid)
      .limit(PAGE_SIZE)
      .prepare('bench_admin_page');
    const bare = async () => {
      const rows = await page.execute();
      if (rows.length !== PAGE_SIZE) throw new Error(`bare select: ${rows.length} rows`);
    };

    const { rows: versions } = (await database.db.execute(sql`select version() as version`)) as unknown as { rows: { version: string }[] };
    console.log(
      `\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} (${versions[0]?.version.split(' on ')[0] ?? kind}), ${fmt(total)} team members; load average ${fmt(loadavg()[0] ?? 0, 2)}`,
    );
    const results: Measurement[] = [];
    for (const [name, once] of [
      ['bare prepared select', bare],
      ['list (page 1)', get('', total)],
      ['search', search],
      ['sort by Email desc', get('?sort=teamMemberUsername&direction=desc&page=3', total)],
    ] as const) {
      const figures = await sample(name, once);
      results.push(figures);
    }
    const baseline = results[0]!;
    for (const r of results) {
      const goal =
        r === baseline ? '' : `  x${fmt(r.median / baseline.median, 1)} of bare  p99 goal ${r.p99 <= GOAL_P99_MS ? 'MET' : 'MISSED'}`;
      console.log(
        `  ${r.name.padEnd(22)} median ${fmt(r.median, 2).padStart(6)} ms  p99 ${fmt(r.p99, 2).padStart(6)} ms  (${fmt(r.count)} calls)${goal}`,
      );
    }
    return results;
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
      'bench:admin',
      `GET ${teamTab.api} one request at a time through HTTP (server and client in one process), ${seconds} s per kind, page size ${PAGE_SIZE}`,
    ),
  );
  for (const kind of kinds) await benchDatabase(kind);
  if (failures.length > 0) {
    console.log(`RUN FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('\nbench: the run failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
