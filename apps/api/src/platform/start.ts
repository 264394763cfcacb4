// Starting a process (server.ts, worker.ts): a bad configuration ends it with a message;
// starting while the database cannot be reached (it is restarting, or starts after us)
// is not a reason to exit: the start is tried again, with backoff, until it answers. An
// embedded database another process has open is: the process ends saying which. The data
// folder is the user's alone: every file the process creates is (umask 077); a data folder
// other users can write ends the start; one they can only read (made by an older version:
// folders 0755, files 0666) is tightened.
import { DatabaseInUseError } from '@boardwalk/db/client';
import { PRIVATE_UMASK, sharedWritableFolder, tightenFolder } from '@boardwalk/db/private-files';
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

/** First thing a process that writes to DATA_DIR does: what it creates (database files, certificates, the lock) is its user's alone. */
export function keepFilesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * DATA_DIR (when it exists) is checked before anything opens it: a folder in it that group or
 * others can write ends the process (exit 1) naming it and the fix, since another user could
 * have replaced the database or the keys in it; files and folders others can only read are
 * made the user's alone (chmod go-rwx), said once.
 */
export function privateDataDirOrExit(dataDir: string, say: (text: string) => void = (text) => console.error(text)): void {
  const shared = sharedWritableFolder(dataDir);
  if (shared) {
    say(
      `The data folder ${shared.path} can be written by other users (mode ${shared.mode}): they could change the database and the keys in it. ` +
        `Check its contents, then make it private: chmod 700 ${shared.path}`,
    );
    process.exit(1);
  }
  let tightened: number;
  try {
    tightened = tightenFolder(dataDir);
  } catch (error) {
    say(
      `The data folder ${dataDir} holds files other users can read, and they cannot be made private (${(error as Error).message}). ` +
        `Run the server as their owner, or: chmod -R go-rwx ${dataDir}`,
    );
    process.exit(1);
  }
  if (tightened > 0) {
    say(
      `The data folder ${dataDir} was readable by other users (made by an older version): ${tightened} files and folders are now readable by this user only.`,
    );
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
