// The loyalty club's expiry queue: at start and then every hour, the lots whose date has come
// expire, the members whose points expire within 30 days are told (each lot once), and the
// member cards time alone changed (a tier, the points expiring soon) are published once.
import fp from 'fastify-plugin';
import { expireLots, publishCardsChangedByTime, remindExpiringLots } from './loyalty-expiry.service.ts';
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
        const now = new Date();
        await expireLots(core, now);
        await remindExpiringLots(reminders, now);
        await publishCardsChangedByTime(core, now);
      },
    });
  },
  { name: 'loyalty-expiry', dependencies: ['jobs', 'mailer'] },
);
