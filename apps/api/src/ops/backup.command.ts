// `npm run backup -- FILE` and `npm run restore -- FILE [--yes]`: the embedded database
// (PGlite in DATA_DIR/pglite) to and from one file, a gzipped tarball of its data folder made
// by PGlite itself (packages/db/src/backup.ts). Both refuse while a process (the server, a
// worker, an import) has the database open: stop it first. A restore over an existing
// database asks for --yes and keeps that database beside it (pglite.before-restore-<time>).
// With DATABASE_URL set they refuse and point to pg_dump / pg_restore (README "Operations").
// A backup file is written 0600 and a restored database folder 0700 with files 0600.
// Exit codes: 0 done, 1 refused or failed (nothing changed), 2 misuse.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpPglite, hasPgliteData, loadPglite, pgliteFolder } from '@boardwalk/db/backup';
import { lockPglite, pgliteHolder } from '@boardwalk/db/client';
import { PRIVATE_UMASK } from '@boardwalk/db/private-files';
import { ConfigError, loadConfig } from '../platform/config.ts';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

const usage = {
  backup: 'Usage: npm run backup -- FILE\n  writes the embedded database (DATA_DIR/pglite) to FILE, a new file (.tar.gz)',
  restore:
    'Usage: npm run restore -- FILE [--yes]\n  replaces the embedded database (DATA_DIR/pglite) with the backup in FILE; --yes when a database is there (it is kept beside it)',
};

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function main(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string | undefined> = process.env,
  out: Output = console,
): Promise<0 | 1 | 2> {
  const yes = args.includes('--yes');
  const files = args.filter((a) => a !== '--yes');
  const [file] = files;
  if (!file || files.length > 1 || file.startsWith('-') || (yes && command === 'backup')) {
    out.error(usage[command]);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.error(error.message);
    return 2;
  }
  if (config.databaseUrl) {
    out.error(
      command === 'backup'
        ? 'DATABASE_URL is set: back PostgreSQL up with pg_dump (pg_dump --format=custom --file=FILE "$DATABASE_URL"; README "Operations").'
        : 'DATABASE_URL is set: restore PostgreSQL with pg_restore (pg_restore --clean --if-exists --dbname "$DATABASE_URL" FILE; README "Operations").',
    );
    return 1;
  }
  const { dataDir } = config;
  const holder = pgliteHolder(dataDir);
  if (holder !== null) {
    out.error(
      `The embedded database in ${dataDir} is open in process ${holder} (the server, a worker or an import): stop it, then run this again.`,
    );
    return 1;
  }
  const path = resolve(file);
  return command === 'backup' ? backup(dataDir, path, out) : restore(dataDir, path, yes, out);
}

async function backup(dataDir: string, path: string, out: Output): Promise<0 | 1> {
  if (!hasPgliteData(dataDir)) {
    out.error(`There is no embedded database in ${dataDir} (DATA_DIR) to back up.`);
    return 1;
  }
  if (existsSync(path)) {
    out.error(`${path} exists: name a new file (a backup never overwrites one).`);
    return 1;
  }
  const tarball = await dumpPglite(dataDir);
  // Written whole, then named: a backup cut short never looks like one. It holds the whole
  // database (the token-signing key included): readable by its user only, whatever the umask.
  const partial = join(resolve(path, '..'), `.${basename(path)}.partial`);
  await writeFile(partial, tarball, { flag: 'wx', mode: 0o600 });
  renameSync(partial, path);
  out.log(`Backed up ${pgliteFolder(dataDir)} to ${path} (${megabytes(tarball.byteLength)}).`);
  return 0;
}

async function restore(dataDir: string, path: string, yes: boolean, out: Output): Promise<0 | 1> {
  let tarball: Uint8Array;
  try {
    tarball = new Uint8Array(await readFile(path));
  } catch (error) {
    out.error(`${path} cannot be read: ${(error as Error).message}`);
    return 1;
  }
  const target = pgliteFolder(dataDir);
  const replacing = hasPgliteData(dataDir);
  if (replacing && !yes) {
    out.error(`${target} holds a database. Run again with --yes to replace it (it is kept as ${target}.before-restore-<time>).`);
    return 1;
  }
  const unlock = lockPglite(dataDir);
  const when = stamp();
  const unpacked = `${target}.restoring-${when}`;
  try {
    let migrations: number;
    try {
      ({ migrations } = await loadPglite(unpacked, tarball));
    } catch (error) {
      rmSync(unpacked, { recursive: true, force: true });
      out.error(`${path} is not a backup of a Boardwalk database (${(error as Error).message}); nothing was changed.`);
      return 1;
    }
    const kept = `${target}.before-restore-${when}`;
    if (existsSync(target)) renameSync(target, kept);
    renameSync(unpacked, target);
    out.log(
      `Restored ${path} into ${target} (${megabytes(statSync(path).size)}, ${migrations} migrations; the server applies newer ones at start).`,
    );
    if (replacing) out.log(`The database it replaced is kept in ${kept}; delete it once the restore is checked.`);
    return 0;
  } finally {
    unlock();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'backup' && command !== 'restore') {
    console.error('Usage: backup.command.ts backup|restore FILE');
    process.exitCode = 2;
  } else {
    // The backup file and a restored database are the user's alone.
    process.umask(PRIVATE_UMASK);
    process.exitCode = await main(command, args);
  }
}
