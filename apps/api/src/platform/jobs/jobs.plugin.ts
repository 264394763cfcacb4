// app.jobs: the durable job queue (job-queue.ts) on this app's database, stopped with the app.
import fp from 'fastify-plugin';
import { startJobQueue, type JobQueue } from './job-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export const jobsPlugin = fp(
  async (app) => {
    const jobs = await startJobQueue(app.database, app.config.deliveries, app.log.child({ module: 'jobs' }));
    app.decorate('jobs', jobs);
    // preClose: workers finish (or release) their jobs while the database is still open.
    app.addHook('preClose', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['data'] },
);
