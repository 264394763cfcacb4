// The loyalty club's expiry queue: at start and then every hour, the lots whose date has come
// expire and the members whose points expire within 30 days are told (each lot once).
import fp from 'fastify-plugin';
import { expireLots, remindExpiringLots } from './loyalty-expiry.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

export const LOYALTY_EXPIRY_QUEUE = 'loyalty-expiry';

export const loyaltyExpiryJobs = fp(
  async (app) => {
    const core = loyaltyCoreOf(app);
    const reminders = { db: core.db, mailer: app.mailer, config: app.config };
    await app.jobs.declare<object>({
      name: LOYALTY_EXPIRY_QUEUE,
      // One run waits at most: runs due while one waits are that one.
      policy: 'stately',
      batchSize: 1,
      cron: '0 * * * *',
      atStart: true,
      handler: async () => {
        await expireLots(core);
        await remindExpiringLots(reminders);
      },
    });
  },
  { name: 'loyalty-expiry', dependencies: ['jobs', 'mailer'] },
);
