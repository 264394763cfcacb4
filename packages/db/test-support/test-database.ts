// Test support: a database of its own for each test file, so runs never collide.
// A test run migrates one template per database kind (prepareTestTemplate, from a Vitest
// global setup) and each test database starts as a copy of it: PostgreSQL clones the template
// database (CREATE DATABASE ... TEMPLATE), PGlite loads a dump of the template's data folder.
// Without a template (a benchmark, a script) each database is migrated from scratch.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteFolder } from '../src/backup.ts';
import { createDb, pgliteExtensions, type Database } from '../src/client.ts';

export const defaultTestDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/test';

/** Which database the current test run targets: TEST_DB=postgres or (default) pglite. */
export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase extends Database {
  /** The connection string of the fresh PostgreSQL database, when kind is postgres. */
  url?: string;
}

/**
 * What a test run's template tells the test processes (environment variables, inherited by
 * the workers Vitest starts after its global setup): the PGlite dump file, the PostgreSQL
 * template database, and the run's prefix for the PostgreSQL databases it makes.
 */
const TEMPLATE_ENV = {
  pgliteDump: 'BW_TEST_PGLITE_TEMPLATE',
  postgresTemplate: 'BW_TEST_POSTGRES_TEMPLATE',
  postgresPrefix: 'BW_TEST_POSTGRES_PREFIX',
} as const;

const adminUrl = () => process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const randomName = (prefix: string) => `${prefix}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A test database's buffer pool on PGlite: it holds a few pages, and each start zeroes the whole
 * pool (1.39 s of CPU a start with PostgreSQL's 128MB, 0.83 s with 16MB: `npm run bench:test-database`).
 */
const TEST_SHARED_BUFFERS = '16MB';

/** The PGlite template's dump, read once per process. */
let pgliteDump: { path: string; blob: Blob } | undefined;

function pgliteTemplate(): Blob | undefined {
  const path = process.env[TEMPLATE_ENV.pgliteDump];
  if (!path) return undefined;
  if (pgliteDump?.path !== path) pgliteDump = { path, blob: new Blob([readFileSync(path)]) };
  return pgliteDump.blob;
}

/**
 * The run's migrated PGlite template as a tarball, to unpack into a data folder (loadPglite in
 * src/backup.ts); undefined without one (a run of the postgres project, a script).
 */
export function pgliteTemplateTarball(): Uint8Array | undefined {
  const path = process.env[TEMPLATE_ENV.pgliteDump];
  return path ? new Uint8Array(readFileSync(path)) : undefined;
}

/**
 * A fresh, migrated database: PGlite in memory, or a new PostgreSQL database dropped on close,
 * opened with a pool of poolSize connections.
 */
export async function createTestDatabase(kind = testDbKind(), poolSize = 5): Promise<TestDatabase> {
  if (process.env.BW_UNIT_PROJECT)
    throw new Error('A file of the unit project opens a test database: take it out of unitTests in vitest.config.ts');
  if (kind === 'pglite') return createDb({ loadDataDir: pgliteTemplate(), pgliteSharedBuffers: TEST_SHARED_BUFFERS });
  const name = randomName(process.env[TEMPLATE_ENV.postgresPrefix] ?? 'bw_test_');
  const template = process.env[TEMPLATE_ENV.postgresTemplate];
  await asAdmin((admin) => admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = databaseUrl(name);
  // Closing drops the database WITH (FORCE): the connections it ends are expected.
  const database = await createDb({ databaseUrl: url, poolSize, onConnectionError: () => undefined });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Whether this process (a test run) already has a template of `kind` (prepareTestTemplate). */
export function testTemplateReady(kind: 'pglite' | 'postgres'): boolean {
  return Boolean(process.env[kind === 'pglite' ? TEMPLATE_ENV.pgliteDump : TEMPLATE_ENV.postgresTemplate]);
}

/**
 * Migrates one template for this test run's databases of `kind` and tells createTestDatabase
 * to copy it (in this process and the processes it starts from now on). Answers the cleanup:
 * it removes the template, and on PostgreSQL every database of the run still there (a test
 * process that died before closing its own).
 */
export async function prepareTestTemplate(kind: 'pglite' | 'postgres'): Promise<() => Promise<void>> {
  if (kind === 'pglite') {
    const folder = mkdtempSync(join(tmpdir(), 'bw-test-template-'));
    const migrated = await createDb({ dataDir: folder });
    await migrated.close();
    const client = await PGlite.create(pgliteFolder(folder), { extensions: pgliteExtensions });
    const dump = join(folder, 'template.tar');
    try {
      // Without PostgreSQL's own templates, which no test copies (PGlite holds one database):
      // the dump 29 MB instead of 44, a test database 0.22 against 0.31 s of CPU to load.
      await client.query(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
      for (const statement of ['DROP DATABASE template0', 'DROP DATABASE template1', 'CHECKPOINT']) await client.query(statement);
      // Uncompressed: each test database loads it, and unpacking is faster than inflating.
      writeFileSync(dump, new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await client.close();
    }
    process.env[TEMPLATE_ENV.pgliteDump] = dump;
    return async () => {
      delete process.env[TEMPLATE_ENV.pgliteDump];
      rmSync(folder, { recursive: true, force: true });
    };
  }
  const run = randomName('bw_test_');
  const template = `${run}_template`;
  await asAdmin((admin) => admin.query(`CREATE DATABASE ${template}`));
  try {
    // A template must have no connection open while it is copied: this pool is closed at once.
    const migrated = await createDb({ databaseUrl: databaseUrl(template), poolSize: 1 });
    await migrated.close();
  } catch (error) {
    await asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    throw error;
  }
  process.env[TEMPLATE_ENV.postgresTemplate] = template;
  process.env[TEMPLATE_ENV.postgresPrefix] = `${run}_`;
  return async () => {
    delete process.env[TEMPLATE_ENV.postgresTemplate];
    delete process.env[TEMPLATE_ENV.postgresPrefix];
    await asAdmin(async (admin) => {
      // The run's name has no LIKE wildcard but "_", escaped here.
      const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
        `${run.replaceAll('_', '\\_')}\\_%`,
      ]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
  };
}
