// `npm run worker`: a process that runs the jobs and serves nothing (it builds the core and the
// jobs, not the routes). For operators who scale out: API instances with DELIVERY_WORKERS=false
// and any number of these on the same PostgreSQL (pg-boss fetches with SKIP LOCKED, so no job
// runs twice).
import closeWithGrace from 'close-with-grace';
import { buildWorker } from './app.ts';
import { configOrExit, keepFilesPrivate, privateDataDirOrExit, startWhenDatabaseAnswers } from './platform/start.ts';

keepFilesPrivate();
const config = configOrExit({ ...process.env, DELIVERY_WORKERS: 'true' });

privateDataDirOrExit(config.dataDir);
const app = await startWhenDatabaseAnswers(() => buildWorker({ config }));
closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info(`${signal} received: finishing the jobs in hand, releasing the rest`);
  await app.close();
});
await app.ready();
console.log(`Boardwalk delivery worker is running on Node.js ${process.version} (Ctrl+C to stop)`);
