// Backups of the embedded database (PGlite): its whole data folder as one gzipped tarball,
// made and read by PGlite itself (dumpDataDir, loadDataDir). Each function takes DATA_DIR,
// holds the database's lock while it works (client.ts lockPglite: never beside a running
// server), and leaves the database closed, its files private (private-files.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockPglite, pgliteExtensions } from './client.ts';
import { tightenFolder } from './private-files.ts';

/** The embedded database's folder inside DATA_DIR. */
export const pgliteFolder = (dataDir: string) => join(dataDir, 'pglite');

export const hasPgliteData = (dataDir: string) => existsSync(pgliteFolder(dataDir)) && readdirSync(pgliteFolder(dataDir)).length > 0;

/** The embedded database of DATA_DIR as a gzipped tarball. */
export async function dumpPglite(dataDir: string): Promise<Uint8Array> {
  if (!hasPgliteData(dataDir)) throw new Error(`There is no embedded database in ${dataDir}`);
  const unlock = lockPglite(dataDir);
  try {
    const client = await PGlite.create(pgliteFolder(dataDir), { extensions: pgliteExtensions });
    try {
      const tarball = await client.dumpDataDir('gzip');
      return new Uint8Array(await tarball.arrayBuffer());
    } finally {
      await client.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Unpacks a tarball of dumpPglite into `folder` (which must not exist or be empty) and checks
 * that it opens as a Boardwalk database (it has the migrations journal); answers its number
 * of applied migrations. The caller moves the folder into place.
 */
export async function loadPglite(folder: string, tarball: Uint8Array): Promise<{ migrations: number }> {
  const client = await PGlite.create(folder, { extensions: pgliteExtensions, loadDataDir: new Blob([tarball as Uint8Array<ArrayBuffer>]) });
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from drizzle.__drizzle_migrations`);
    return { migrations: Number(rows[0]?.n ?? 0) };
  } finally {
    await client.close();
    // PGlite unpacks the tarball's files 0666.
    tightenFolder(folder);
  }
}
