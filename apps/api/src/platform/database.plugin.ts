import fp from 'fastify-plugin';
import { createDb, type Database } from '@boardwalk/db/client';
import type { Redis } from 'ioredis';
import { Redis as RedisClient } from 'ioredis';
import type { Config } from './config.ts';
import { isDatabaseUnavailable, watchDatabaseHealth, type DatabaseHealth } from './database-health.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    databaseHealth: DatabaseHealth;
    redis: Redis | undefined;
  }
}

export interface DataOptions {
  config: Config;
  /** An open database to use (tests); otherwise one is opened from the configuration. */
  database?: Database;
  /** A Redis client to use (tests); otherwise one is created when REDIS_URL is set. */
  redis?: Redis;
}

/** The configuration, the database (migrated on open) and Redis, closed with the app. */
export const dataPlugin = fp<DataOptions>(
  async (app, opts) => {
    app.decorate('config', opts.config);
    let database: Database | undefined = opts.database;
    const health = watchDatabaseHealth(() => database!.ping(), app.log.child({ module: 'database' }));
    database ??= await createDb({
      databaseUrl: opts.config.databaseUrl,
      poolSize: opts.config.databasePoolSize,
      dataDir: opts.config.dataDir,
      // A lost connection is replaced by the pool; whether the database itself is gone, the health watch tells.
      onConnectionError: (err) =>
        isDatabaseUnavailable(err) ? health.lost(err) : app.log.warn({ err: err.message }, 'database connection error'),
    });
    app.decorate('database', database);
    app.decorate('databaseHealth', health);
    const redis =
      opts.redis ??
      (opts.config.redisUrl ? new RedisClient(opts.config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false }) : undefined);
    redis?.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      // What the app opened itself, it closes; what it was handed, the caller closes.
      if (!opts.redis) await redis?.quit();
      health.stop();
      if (!opts.database) await database.close();
    });
  },
  { name: 'data' },
);
