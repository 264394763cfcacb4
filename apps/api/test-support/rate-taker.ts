// Test support: a process that takes slots of a shared request rate on the database at
// DATABASE_URL and prints the slots granted (a JSON array of milliseconds), for
// google-rate.test.ts to check the rate across processes. Arguments: key, per second, count,
// and the moment (Date.now()) to begin at.
import { createDb } from '@boardwalk/db/client';
import { createRequestRate } from '../src/wallet/google/google-rate.ts';

const [key, perSecond, count, at] = process.argv.slice(2);
const database = await createDb({ databaseUrl: process.env.DATABASE_URL, poolSize: 4 });
const rate = createRequestRate(database.db, key!, Number(perSecond));
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(at) - Date.now())));
const granted = await Promise.all(Array.from({ length: Number(count) }, () => rate.take()));
await database.close();
process.stdout.write(JSON.stringify(granted));
