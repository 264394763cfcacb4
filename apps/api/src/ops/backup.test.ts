// npm run backup / restore: a round trip of the embedded database keeps every row of every
// table (count and content), and the commands refuse what would lose or corrupt data. On
// PostgreSQL the README's pg_dump / pg_restore lines get the same round trip.
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, DatabaseInUseError, PGLITE_LOCK_FILE, type Database } from '@boardwalk/db/client';
import { loadPglite, pgliteFolder } from '@boardwalk/db/backup';
import { createTestDatabase, pgliteTemplateTarball, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { createTestApp } from '../../test-support/test-app.ts';
import { loginAs } from '../../test-support/staff.ts';
import { main, type Output } from './backup.command.ts';

/** Every table of every schema (public, pgboss, drizzle): its row count and a digest of its rows in order. */
async function snapshot(database: Pick<Database, 'executeSql'>) {
  const { rows: tables } = await database.executeSql(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    [],
  );
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const { s, t } of tables as { s: string; t: string }[]) {
    const { rows } = await database.executeSql(
      `select count(*)::int as n, coalesce(md5(string_agg(x::text, E'\\n' order by x::text)), '') as d from "${s}"."${t}" x`,
      [],
    );
    result[`${s}.${t}`] = { rows: Number(rows[0]!.n), digest: String(rows[0]!.d) };
  }
  return result;
}

/** Fills a database the way the app does: the demo data, a staff login, a registration. */
async function populate(database: TestDatabase) {
  const t = await createTestApp({ database, env: { DEMO_DATA: 'true', DELIVERY_WORKERS: 'false' } });
  try {
    await loginAs(t.app, { accessLevel: 1000 });
    const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '10000003', barcode: '1000000000000035' } });
    expect(login.statusCode, login.body).toBe(200);
  } finally {
    await t.close();
  }
}

/** Every file and folder under root that group or others hold any right on. */
function sharedEntries(root: string): string[] {
  const stats = lstatSync(root);
  const own = stats.mode & 0o077 ? [`${root} ${(stats.mode & 0o777).toString(8)}`] : [];
  if (!stats.isDirectory()) return own;
  return [...own, ...readdirSync(root).flatMap((name) => sharedEntries(join(root, name)))];
}

const collect = () => {
  const lines: string[] = [];
  const out: Output = { log: (l) => lines.push(l), error: (l) => lines.push(l) };
  return { out, text: () => lines.join('\n') };
};

describe.skipIf(testDbKind() !== 'pglite')('npm run backup / restore (the embedded database)', () => {
  const root = mkdtempSync(join(tmpdir(), 'bw-backup-'));
  const source = join(root, 'source');
  const target = join(root, 'target');
  const file = join(root, 'boardwalk.tar.gz');
  let before: Awaited<ReturnType<typeof snapshot>>;
  const env = (dataDir: string, extra: Record<string, string> = {}) => ({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra });
  const run = async (command: 'backup' | 'restore', args: string[], dataDir: string, extra?: Record<string, string>) => {
    const c = collect();
    const code = await main(command, args, env(dataDir, extra), c.out);
    return { code, text: c.text() };
  };
  const snapshotOf = async (dataDir: string) => {
    const database = await createDb({ dataDir });
    try {
      return await snapshot(database);
    } finally {
      await database.close();
    }
  };

  beforeAll(async () => {
    // The run's migrated template (always there in this project, PGlite's) instead of an empty
    // folder migrated from scratch: what matters here is the rows, which populate writes.
    const template = pgliteTemplateTarball();
    if (template) {
      mkdirSync(source, { mode: 0o700 });
      await loadPglite(pgliteFolder(source), template);
    }
    const database = (await createDb({ dataDir: source })) as TestDatabase;
    await populate(database);
    await database.close();
    before = await snapshotOf(source);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('restores every row of every table', async () => {
    const filled = Object.entries(before).filter(([, v]) => v.rows > 0);
    // The demo, the session, the registration and the queued jobs.
    expect(filled.length).toBeGreaterThan(15);
    expect(before['public.tickets']!.rows).toBeGreaterThanOrEqual(10);
    expect(before['public.staff_sessions']?.rows ?? before['public.sessions']?.rows).toBeGreaterThanOrEqual(1);

    const backedUp = await run('backup', [file], source);
    expect(backedUp, backedUp.text).toMatchObject({ code: 0 });
    expect(backedUp.text).toMatch(/^Backed up .*pglite to .*boardwalk\.tar\.gz \(\d+\.\d MB\)\.$/);
    // Backing up changed nothing.
    expect(await snapshotOf(source)).toEqual(before);
    // The backup holds the token-signing key: its user's alone, though the test runner's umask is 022.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // So does the database folder it came from (PGlite writes the files it unpacks 0666).
    expect(sharedEntries(source)).toEqual([]);

    const restored = await run('restore', [file], target);
    expect(restored, restored.text).toMatchObject({ code: 0 });
    expect(restored.text).toMatch(/Restored .* \d+ migrations/);
    expect(sharedEntries(target)).toEqual([]);
    expect(await snapshotOf(target)).toEqual(before);
  });

  it('serves the restored database', async () => {
    const database = (await createDb({ dataDir: target })) as TestDatabase;
    const t = await createTestApp({ database, env: { DELIVERY_WORKERS: 'false' } });
    try {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { orderId: '10000003', barcode: '1000000000000035' },
      });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await t.close();
      await database.close();
    }
  });

  it('refuses while another process has the database open, and so does the server', async () => {
    // The parent process (the test runner) is alive and not this one.
    writeFileSync(join(source, PGLITE_LOCK_FILE), `${process.ppid}\n`);
    try {
      const backup = await run('backup', [join(root, 'while-open.tar.gz')], source);
      expect(backup.code).toBe(1);
      expect(backup.text).toContain(`is open in process ${process.ppid}`);
      expect(existsSync(join(root, 'while-open.tar.gz'))).toBe(false);
      const restore = await run('restore', [file, '--yes'], source);
      expect(restore.code).toBe(1);
      expect(restore.text).toContain('stop it, then run this again');
      await expect(createDb({ dataDir: source })).rejects.toBeInstanceOf(DatabaseInUseError);
    } finally {
      rmSync(join(source, PGLITE_LOCK_FILE));
    }
    // A lock left by a process that is gone is ignored.
    writeFileSync(join(source, PGLITE_LOCK_FILE), '999999999\n');
    expect(await snapshotOf(source)).toEqual(before);
  });

  it('asks for --yes to replace a database, and keeps the one it replaced', async () => {
    const refused = await run('restore', [file], target);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('Run again with --yes');
    expect(readdirSync(target).filter((f) => f.startsWith('pglite.'))).toEqual([]);

    const replaced = await run('restore', [file, '--yes'], target);
    expect(replaced, replaced.text).toMatchObject({ code: 0 });
    expect(replaced.text).toContain('The database it replaced is kept in');
    expect(readdirSync(target).filter((f) => f.startsWith('pglite.before-restore-'))).toHaveLength(1);
    expect(await snapshotOf(target)).toEqual(before);
  });

  it('refuses a file that is not a backup and changes nothing', async () => {
    const junk = join(root, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    const res = await run('restore', [junk, '--yes'], target);
    expect(res.code).toBe(1);
    expect(res.text).toContain('is not a backup of a Boardwalk database');
    expect(readdirSync(target).filter((f) => f.includes('.restoring-'))).toEqual([]);
    expect(await snapshotOf(target)).toEqual(before);
    expect((await run('restore', [join(root, 'missing.tar.gz'), '--yes'], target)).text).toContain('cannot be read');
  });

  it('never overwrites a file, needs a database, and points PostgreSQL to pg_dump', async () => {
    const exists = await run('backup', [file], source);
    expect(exists.code).toBe(1);
    expect(exists.text).toContain('a backup never overwrites one');
    const empty = await run('backup', [join(root, 'none.tar.gz')], join(root, 'empty'));
    expect(empty.code).toBe(1);
    expect(empty.text).toContain('There is no embedded database');
    const postgres = await run('backup', [join(root, 'pg.tar.gz')], source, { DATABASE_URL: 'postgres://u@db/boardwalk' });
    expect(postgres.code).toBe(1);
    expect(postgres.text).toContain('pg_dump');
    expect((await run('restore', [file], source, { DATABASE_URL: 'postgres://u@db/boardwalk' })).text).toContain('pg_restore');
    expect((await run('backup', [], source)).code).toBe(2);
    expect((await run('backup', [file, '--yes'], source)).code).toBe(2);
    expect((await run('restore', [file, 'other'], source)).code).toBe(2);
  });
});

describe.skipIf(testDbKind() !== 'postgres')('pg_dump and pg_restore as the README says (PostgreSQL)', () => {
  const exec = promisify(execFile);
  let source: TestDatabase;
  let copy: TestDatabase;
  beforeAll(async () => {
    source = await createTestDatabase();
    await populate(source);
    copy = await createTestDatabase();
  });
  afterAll(async () => {
    await source.close();
    await copy.close();
  });

  it('keeps every row of every table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-pgdump-'));
    const file = join(dir, 'boardwalk.dump');
    try {
      await exec('pg_dump', ['--format=custom', `--file=${file}`, source.url!]);
      // Into a database that is already migrated (as one the server started on would be): --clean replaces it.
      await exec('pg_restore', ['--clean', '--if-exists', '--no-owner', '--dbname', copy.url!, file]);
      const client = new pg.Client({ connectionString: copy.url! });
      await client.connect();
      try {
        const restored = await snapshot({ executeSql: (text, values) => client.query(text, values) });
        expect(restored).toEqual(await snapshot(source));
      } finally {
        await client.end();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
