// The statement link's queue: the look-up of an email asked for and its mail, after the answer.
import fp from 'fastify-plugin';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';
import type { SealedEmailJob } from '../../platform/jobs/sealed-email-job.ts';
import { mailStatementLink, STATEMENT_LINK_QUEUE } from './loyalty-statement.service.ts';

export const loyaltyStatementJobs = fp(
  async (app) => {
    const deps = {
      core: loyaltyCoreOf(app),
      keys: app.keys,
      mailer: app.mailer,
      jobs: app.jobs,
      config: app.config,
    };
    await app.jobs.declare<SealedEmailJob>({
      name: STATEMENT_LINK_QUEUE,
      policy: 'standard',
      batchSize: 5,
      handler: ({ data }) => mailStatementLink(deps, data),
    });
  },
  { name: 'loyalty-statement-jobs', dependencies: ['jobs', 'mailer'] },
);
