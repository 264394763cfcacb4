// Starting a process (server.ts, worker.ts): a bad configuration ends it with a message;
// starting while the database cannot be reached (it is restarting, or starts after us)
// is not a reason to exit: the start is tried again, with backoff, until it answers. An
// embedded database another process has open is: the process ends saying which.
import { DatabaseInUseError } from '@boardwalk/db/client';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { isDatabaseUnavailable } from './database-health.ts';

/** The configuration, or the process ends naming what is wrong (exit 1). */
export function configOrExit(source: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 10_000;

export async function startWhenDatabaseAnswers<T>(
  start: () => Promise<T>,
  say: (text: string) => void = (text) => console.error(text),
): Promise<T> {
  for (let wait = FIRST_WAIT_MS, told = false; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await start();
    } catch (error) {
      // The embedded database is open in another process (a server, a worker, an import): exit 1, naming it.
      if (error instanceof DatabaseInUseError) {
        say(error.message);
        process.exit(1);
      }
      if (!isDatabaseUnavailable(error)) throw error;
      if (!told) say(`The database cannot be reached (${rootMessage(error)}); waiting for it...`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The driver's own words, under the query wrappers (Drizzle's "Failed query: ..."). */
function rootMessage(error: unknown): string {
  let current = error as { message?: string; cause?: unknown };
  while (current.cause) current = current.cause as typeof current;
  return current.message ?? String(error);
}
