// app.jobs: the durable job queue (job-queue.ts) on this app's database, stopped with the app.
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../database-health.ts';
import { startJobQueue, type JobQueue } from './job-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export const jobsPlugin = fp(
  async (app) => {
    const log = app.log.child({ module: 'jobs' });
    const jobs = await startJobQueue(app.database, app.config.deliveries, (err) =>
      isDatabaseUnavailable(err) ? app.databaseHealth.lost(err) : log.warn({ err: err.message }, 'job queue error'),
    );
    app.decorate('jobs', jobs);
    // preClose: workers finish (or release) their jobs while the database is still open.
    app.addHook('preClose', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['data'] },
);
