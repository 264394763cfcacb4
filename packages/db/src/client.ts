import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: what every repo function accepts. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers when the database can run a query (used by /readyz). */
  ping(): Promise<void>;
  /**
   * Runs SQL text as it is, with $1.. parameters, on the pool (or PGlite) outside any
   * transaction: what a library that brings its own SQL needs (pg-boss's `db` adapter).
   * Without values the text may hold several statements.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** postgres:// URL; unset means embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Folder for PGlite's files; unset with no databaseUrl means in memory. */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Told when an idle pooled connection is lost (server restart, admin command); the pool replaces it. */
  onConnectionError?: (error: Error) => void;
}

const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));
const config = { schema, casing: 'snake_case' } as const;

/** Opens the database and brings its schema up to date. */
export async function createDb(options: CreateDbOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // Without a listener, a lost idle connection is an unhandled 'error' that ends the process.
    pool.on('error', options.onConnectionError ?? ((error) => console.warn(`database connection lost: ${error.message}`)));
    const db = drizzlePg({ client: pool, ...config });
    await migratePg(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      executeSql: (text, values) => pool.query(text, values),
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite({ client, ...config });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ping: async () => void (await db.execute(sql`select 1`)),
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values);
      // PGlite's query() takes one statement; exec() runs a script and answers each one's rows.
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    close: () => client.close(),
  };
}
