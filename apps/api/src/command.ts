// What the commands beside the server share (npm run import, npm run retention): the app's core
// and jobs, without workers, on the configured database (DATABASE_URL, or PGlite in DATA_DIR),
// for as long as the command runs. What they change is published to the same queues as the
// server's: their jobs run in the server's workers.
import { buildWorker } from './app.ts';
import { ConfigError, loadConfig } from './platform/config.ts';

type Core = Awaited<ReturnType<typeof buildWorker>>;

/** Runs `work` on the core; its exit code, or 2 when the configuration is invalid (said on stderr). */
export async function withCore(work: (app: Core) => Promise<number>): Promise<number> {
  let config;
  try {
    config = loadConfig({ ...process.env, DELIVERY_WORKERS: 'false' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  const app = await buildWorker({ config, logger: false });
  try {
    await app.ready();
    return await work(app);
  } finally {
    await app.close();
  }
}
