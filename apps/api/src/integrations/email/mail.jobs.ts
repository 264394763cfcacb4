// The mail queue: one outbox message sent over SMTP per job (mailer.ts deliver).
import fp from 'fastify-plugin';
import type { DeliveryJobData } from '../../platform/jobs/delivery.ts';
import { MAIL_QUEUE, type MailPayload } from './mailer.ts';

export const mailJobs = fp(
  async (app) => {
    await app.jobs.declare<MailPayload & DeliveryJobData>({
      name: MAIL_QUEUE,
      policy: 'stately',
      batchSize: 5,
      handler: app.mailer.deliver,
    });
  },
  { name: 'mail-jobs', dependencies: ['jobs', 'mailer'] },
);
