// The privacy link's queue: the search of an email asked for and its mail, after the answer.
import fp from 'fastify-plugin';
import type { SealedEmailJob } from '../../platform/jobs/sealed-email-job.ts';
import { mailPrivacyLink, PRIVACY_LINK_QUEUE } from './privacy-request.service.ts';

export const privacyRequestJobs = fp(
  async (app) => {
    const deps = { db: app.database.db, keys: app.keys, mailer: app.mailer, privacy: app.privacy, config: app.config };
    await app.jobs.declare<SealedEmailJob>({
      name: PRIVACY_LINK_QUEUE,
      policy: 'standard',
      batchSize: 5,
      handler: ({ data }) => mailPrivacyLink(deps, data),
    });
  },
  { name: 'privacy-request-jobs', dependencies: ['jobs', 'mailer', 'privacy'] },
);
