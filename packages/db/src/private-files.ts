// The data folder (DATA_DIR: the embedded database, whose WAL holds the token-signing key,
// and the development certificates) and backups are for the process's own user only:
// folders 0700, files 0600. Processes that write there set the umask PRIVATE_UMASK first;
// PGlite chmods the files it unpacks itself (0666), so its folder is tightened after it
// opens and after it closes.
import { chmodSync, lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Every file and folder the process creates is its user's alone (folders 0700, files 0600). */
export const PRIVATE_UMASK = 0o077;

/** The mode bits group and others hold. */
const SHARED_BITS = 0o077;
const SHARED_WRITE_BITS = 0o022;

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

const statOrNull = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** The folder a root names, itself when it is not there (DATA_DIR may be a link to a volume). */
const resolved = (root: string) => {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
};

/** path and everything under it (links inside are neither followed nor listed: their own mode means nothing). */
function* walk(path: string): Generator<{ path: string; stats: Stats }> {
  const stats = statOrNull(path);
  if (!stats || stats.isSymbolicLink()) return;
  yield { path, stats };
  if (stats.isDirectory()) for (const name of readdirSync(path)) yield* walk(join(path, name));
}

/**
 * The first folder in `root` (itself included) that group or others can write, with its mode,
 * or null. Such a folder lets another user replace the database or the keys in it.
 */
export function sharedWritableFolder(root: string): { path: string; mode: string } | null {
  for (const { path, stats } of walk(resolved(root))) {
    if (stats.isDirectory() && stats.mode & SHARED_WRITE_BITS) return { path, mode: octal(stats.mode) };
  }
  return null;
}

/** Takes group's and others' rights from `root` and everything under it; answers how many entries changed. */
export function tightenFolder(root: string): number {
  let changed = 0;
  for (const { path, stats } of walk(resolved(root))) {
    if (!(stats.mode & SHARED_BITS)) continue;
    chmodSync(path, stats.mode & 0o700);
    changed++;
  }
  return changed;
}
